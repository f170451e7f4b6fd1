import type { VmView } from './trpc-types';

/**
 * A VM's status as the console says it, once (docs/product.md §6): `running`; an ended VM by
 * how it ended — `reclaimed` (its capacity was taken back) or `terminated by its owner` (its
 * org, or an operator on its behalf, ended it) — never "terminated (terminated)".
 */
export function vmStatusLabel(vm: Pick<VmView, 'status' | 'terminationReason'>): string {
  if (vm.status === 'running') return 'running';
  return vm.terminationReason === 'reclaimed' ? 'reclaimed' : 'terminated by its owner';
}
