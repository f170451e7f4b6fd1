import { NodeView } from '@/components/node-view';

export default async function NodePage({ params }: { params: Promise<{ nodeId: string }> }) {
  const { nodeId } = await params;
  return <NodeView nodeId={decodeURIComponent(nodeId)} />;
}
