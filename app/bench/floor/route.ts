import { answerFloorRequest } from '@/server/bench/floor';

// The benchmark's floor route (server/bench/floor.ts): 404 unless BENCH_FLOOR=1.
export const dynamic = 'force-dynamic';
export const POST = answerFloorRequest;
