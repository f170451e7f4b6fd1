'use client';

import { useEffect, useState } from 'react';
import type { ConsoleClient } from '../live/trpc-client';
import { useServerCall } from '../live/use-server-call';
import { offers } from '../offers';
import type { UnitView } from '../trpc-types';
import { Time } from '../time-zone';

type UnitDetail = Awaited<ReturnType<ConsoleClient['nodes']['unit']['query']>>;

const readUnit = (client: ConsoleClient, input: { nodeId: string; unitId: string }) => client.nodes.unit.query(input);

/** What was read, by `node/unit/vm`: a unit's VM does not change while it runs. */
const read = new Map<string, UnitDetail['vm'] | null>();

/**
 * The end of the node page's unit details line, for a unit whose VM the caller may see: that
 * VM's tier and start, read with `nodes.unit` (GET /v1/nodes/{nodeId}/units/{unitId}) once the
 * pointer or focus has rested on the unit for a moment; the tRPC client loads then, not with the
 * page. Inside the details line, so nothing moves when it appears.
 */
export function UnitVmDetail({ nodeId, unit }: { nodeId: string; unit: UnitView }) {
  const call = useServerCall(readUnit);
  const key = `${nodeId}/${unit.id}/${unit.vmId ?? ''}`;
  const [vm, setVm] = useState(read.get(key));
  const { run } = call;
  useEffect(() => {
    setVm(read.get(key));
    if (!unit.vmId || read.has(key)) return;
    const timer = setTimeout(() => {
      run({ nodeId, unitId: unit.id })
        .then((d) => {
          read.set(key, d.vm ?? null);
          setVm(d.vm ?? null);
        })
        // A detail the page can do without: the line stays as the grid has it.
        .catch(() => undefined);
    }, 250);
    return () => clearTimeout(timer);
  }, [key, nodeId, unit.id, unit.vmId, run]);
  if (!vm) return null;
  return (
    <span data-testid="unit-vm-detail" {...offers('node.unit-details')}>
      {` · ${vm.id}: ${vm.tier}, since `}
      <Time iso={vm.startedAt} />
    </span>
  );
}
