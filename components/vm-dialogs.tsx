'use client';

import { useMutation } from '@tanstack/react-query';
import { vmHref } from './links';
import { useTRPC } from './trpc-provider';
import type { VmView } from './trpc-types';
import { FormDialog } from './ui/form-dialog';
import { Time } from './time-zone';

/**
 * Terminate a VM (its own org, or the operator: docs/product.md §2), after a confirmation that
 * says what ends. Owners and managing orgs take capacity back through Reclaim… instead.
 */
export function TerminateVmDialog({ vm, onClose }: { vm: VmView; onClose: () => void }) {
  const trpc = useTRPC();
  const terminate = useMutation(trpc.vms.terminate.mutationOptions());
  return (
    <FormDialog
      tone="danger"
      title={`Terminate ${vm.id}`}
      submitLabel="Terminate VM"
      onClose={onClose}
      outcome={(ended) => ({
        message: `Terminated ${ended.id}: ${ended.unitIds.join(', ')} of ${ended.nodeId} are free of it.`,
        link: { href: vmHref(ended.id), label: `Open ${ended.id}` },
      })}
      onSubmit={() => terminate.mutateAsync({ vmId: vm.id })}
    >
      {() => (
        <p className="text-sm">
          The {vm.tier} VM on <span className="font-mono">{vm.unitIds.join(', ')}</span>, running since <Time iso={vm.startedAt} />, ends now and frees its
          units. This cannot be undone.
        </p>
      )}
    </FormDialog>
  );
}
