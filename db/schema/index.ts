export * from './audit';
export * from './idempotency';
export * from './nodes';
export * from './notifications';
export * from './orgs';
export * from './rate-limits';
export * from './reservations';
export * from './vms';
