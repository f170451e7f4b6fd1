// Written by `npx tsx server/openapi/revisions.ts --write`; one import per committed revision, oldest first.
import r0001 from './0001.json';
import r0002 from './0002.json';

export const revisionFiles = [r0001, r0002];
