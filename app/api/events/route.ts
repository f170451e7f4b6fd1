import { consoleEventStream } from '@/server/events/console-stream';

// The console's live stream: server-sent events over the acting org's feed (docs/product.md §5.7).
export const dynamic = 'force-dynamic';
export const GET = consoleEventStream;
