import { FleetTable } from '@/components/fleet-table';

export const metadata = { title: 'Fleet · GPU Reservations' };

export default function FleetPage() {
  return <FleetTable />;
}
