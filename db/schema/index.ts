export * from './orgs';
export * from './nodes';
export * from './reservations';
export * from './vms';
export * from './audit';
export * from './notifications';
export * from './idempotency';
export * from './rate-limits';
