/**
 * The CLI on the SDK (docs/product.md §5.9): `gpu-reservations nodes|reservations|reclaim|vms|audit|events …`,
 * `--json` on every command, tables otherwise, an exit code per problem class.
 */
import { Command, CommanderError, Option } from 'commander';
import { createInterface } from 'node:readline';
import { createGpuReservationsClient, isDryRun, type EventType, type GpuReservationsClient, type ListItem, type ListPath, type ListParams } from '../client';
import { ApiProblemError, isProblem, unwrap, type ReclaimProblem } from '../problems';
import { readCliConfig } from './config';
import { exitCodes, exitCodesHelp, readExitCode } from './exit-codes';
import { printFields, printJson, printTable } from './output';

type Globals = { json?: boolean; baseUrl?: string };
/** A failure that is no problem of the API's: usage, a declined prompt, no key. */
class CliExit extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

const ids = (value: string) =>
  value === ''
    ? []
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliExit(`not a positive integer: ${value}`, exitCodes.usage);
  return n;
};

function connect(cmd: Command): { client: GpuReservationsClient; json: boolean } {
  const globals = cmd.optsWithGlobals<Globals>();
  const config = readCliConfig(globals.baseUrl === undefined ? {} : { baseUrl: globals.baseUrl });
  if (!config.apiKey)
    throw new CliExit('No API key: set GPU_RESERVATIONS_API_KEY or write { "apiKey": … } to the config file (see --help).', exitCodes.unauthorized);
  return { client: createGpuReservationsClient({ baseUrl: config.baseUrl, apiKey: config.apiKey }), json: globals.json === true };
}

/** Reads up to `limit` items of a list (all when absent). */
async function collect<P extends ListPath>(client: GpuReservationsClient, path: P, params?: ListParams<P>, limit?: number): Promise<ListItem<P>[]> {
  const out: ListItem<P>[] = [];
  for await (const item of client.paginate(path, params)) {
    out.push(item);
    if (limit !== undefined && out.length >= limit) break;
  }
  return out;
}

/**
 * Asks on stderr and reads one line of stdin: a terminal's, or a pipe's (`echo y | …`). Anything
 * but yes declines (exit 7); the end of the input before an answer too, saying that `--yes`
 * confirms without a prompt (a script with no stdin otherwise learns only that nothing happened).
 * @throws CliExit declined
 */
async function confirmOrDecline(question: string): Promise<void> {
  const rl = createInterface({ input: process.stdin, terminal: false });
  process.stderr.write(`${question} [y/N] `);
  const answer = await new Promise<string | undefined>((resolve) => {
    rl.once('line', resolve);
    rl.once('close', () => resolve(undefined));
  });
  rl.close();
  if (answer === undefined) throw new CliExit('\nNo answer (the input ended): nothing changed. Pass --yes to confirm without a prompt.', exitCodes.declined);
  if (!/^y(es)?$/i.test(answer.trim())) throw new CliExit('Declined: nothing changed.', exitCodes.declined);
}

type ReclaimFlags = { units?: string; count?: number; dryRun?: boolean; yes?: boolean; reason?: string; expect?: string };

/**
 * Reclaim as the console does it (docs/product.md §5.1, §5.5): the plan (`--count`) or a dry run
 * (`--units`) first, shown; then, confirmed (`--yes` or the prompt), the reclaim with the
 * previewed set as `expectedTerminate`, so a changed set is 409 `eviction_set_changed` and
 * nothing happens.
 */
async function reclaim(cmd: Command, nodeId: string, id: string, flags: ReclaimFlags): Promise<void> {
  const { client, json } = connect(cmd);
  const path = { nodeId, id };
  const candidates = flags.units === undefined ? undefined : ids(flags.units);
  let unitIds: string[];
  let preview: { wouldTerminate: string[]; wouldSkip: string[] };
  let shown: unknown;
  if (flags.count !== undefined) {
    const plan = unwrap(
      await client.api.POST('/v1/nodes/{nodeId}/reservations/{id}/reclaim-plan', {
        params: { path },
        body: { count: flags.count, ...(candidates ? { unitIds: candidates } : {}) },
      }),
    );
    ({ unitIds } = plan);
    preview = plan;
    shown = plan;
    if (!json) {
      console.log(`Plan (${plan.policy}) for ${flags.count} GPU${flags.count === 1 ? '' : 's'} back:`);
      printTable(
        ['kind', 'id', 'why'],
        plan.reasons.map((r) => [r.kind, r.id, r.text]),
      );
    }
  } else {
    if (!candidates?.length) throw new CliExit('Name the units (--units gpu-0,gpu-1) or ask for a plan (--count N).', exitCodes.usage);
    unitIds = candidates;
    const dry = unwrap(await client.api.POST('/v1/nodes/{nodeId}/reservations/{id}/reclaim', { params: { path }, body: { unitIds, dryRun: true } }));
    if (!isDryRun(dry)) throw new CliExit('The server answered a dry run with a reclaim.', exitCodes.unexpected);
    preview = dry;
    shown = dry;
  }
  if (!json || !flags.dryRun) {
    const write = json ? (line: string) => console.error(line) : (line: string) => console.log(line);
    printFields({ units: unitIds, 'would terminate': preview.wouldTerminate, 'would leave running': preview.wouldSkip }, write);
  }
  if (flags.dryRun) {
    if (json) printJson(shown);
    return;
  }
  const expectedTerminate = flags.expect === undefined ? preview.wouldTerminate : ids(flags.expect);
  const question = `Terminate ${expectedTerminate.length} spot VM${expectedTerminate.length === 1 ? '' : 's'} and reclaim ${unitIds.length} unit${unitIds.length === 1 ? '' : 's'}?`;
  if (!flags.yes) await confirmOrDecline(question);
  const result = await client.api.POST('/v1/nodes/{nodeId}/reservations/{id}/reclaim', {
    params: { path },
    body: { unitIds, expectedTerminate, ...(flags.reason === undefined ? {} : { reason: flags.reason }) },
  });
  const problem: ReclaimProblem | undefined = result.error;
  if (isProblem(problem, 'eviction_set_changed') && !json) {
    console.error(
      `The spot VMs on those units changed since the preview: the reclaim would now terminate ${problem.terminate.join(', ') || 'none'}. Nothing changed; run again to see the new set.`,
    );
  }
  const done = unwrap(result);
  if (isDryRun(done)) throw new CliExit('The server answered a reclaim with a dry run.', exitCodes.unexpected);
  if (json) return printJson(done);
  printFields({ reservation: done.id, status: done.status, terminated: done.terminated, skipped: done.skipped, 'still released': done.releasedUnitIds });
}

/**
 * The `gpu-reservations` program (docs/product.md §5.9). Parse with `parseAsync`; the caller
 * turns a thrown error into an exit code with `readErrorExitCode`.
 */
export function buildProgram(): Command {
  const program = new Command('gpu-reservations')
    .description(
      'The GPU Reservations API from the command line. The key: GPU_RESERVATIONS_API_KEY, else the config file (GPU_RESERVATIONS_CONFIG, default ~/.config/gpu-reservations/config.json: { "baseUrl", "apiKey" }).',
    )
    .option('--json', 'print JSON instead of tables')
    .addOption(new Option('--base-url <url>', 'where the API is served (default GPU_RESERVATIONS_BASE_URL, the config file, http://localhost:3000)'))
    .addHelpText('after', exitCodesHelp)
    .exitOverride()
    .showHelpAfterError();

  const nodes = program.command('nodes').description('GPU nodes and their units');
  nodes
    .command('list')
    .description('the nodes the key may see')
    .option('--limit <n>', 'at most n', positiveInt)
    .action(async (opts: { limit?: number }, cmd: Command) => {
      const { client, json } = connect(cmd);
      const items = await collect(client, '/v1/nodes', {}, opts.limit);
      if (json) return printJson(items);
      printTable(
        ['id', 'name', 'owner', 'units', 'topologyGen'],
        items.map((n) => [n.id, n.name, n.ownerOrgId, n.units.length, n.topologyGen]),
      );
    });
  nodes
    .command('get <nodeId>')
    .description('a node and the state of each unit')
    .action(async (nodeId: string, _opts: unknown, cmd: Command) => {
      const { client, json } = connect(cmd);
      const node = unwrap(await client.api.GET('/v1/nodes/{nodeId}', { params: { path: { nodeId } } }));
      if (json) return printJson(node);
      printFields({ id: node.id, name: node.name, owner: node.ownerOrgId, topologyGen: node.topologyGen });
      printTable(
        ['unit', 'state', 'vm', 'reservation'],
        node.units.map((u) => [u.id, u.state, u.vmId, u.reservationId]),
      );
    });

  const reservations = program.command('reservations').description('reservations, release and reclaim');
  reservations
    .command('list')
    .description("the reservations the key's org holds, manages or uses (or those of one node)")
    .option('--node <nodeId>', 'those on this node')
    .option('--limit <n>', 'at most n', positiveInt)
    .action(async (opts: { node?: string; limit?: number }, cmd: Command) => {
      const { client, json } = connect(cmd);
      const items =
        opts.node === undefined
          ? await collect(client, '/v1/reservations', {}, opts.limit)
          : await collect(client, '/v1/nodes/{nodeId}/reservations', { path: { nodeId: opts.node } }, opts.limit);
      if (json) return printJson(items);
      printTable(
        ['id', 'node', 'status', 'reserved', 'released', 'ends'],
        items.map((r) => [r.id, r.nodeId, r.status, r.reservedUnitIds, r.releasedUnitIds, r.endsAt]),
      );
    });
  reservations
    .command('get <nodeId> <id>')
    .description('one reservation')
    .action(async (nodeId: string, id: string, _opts: unknown, cmd: Command) => {
      const { client, json } = connect(cmd);
      const r = unwrap(await client.api.GET('/v1/nodes/{nodeId}/reservations/{id}', { params: { path: { nodeId, id } } }));
      if (json) return printJson(r);
      printFields({
        id: r.id,
        node: r.nodeId,
        status: r.status,
        reserved: r.reservedUnitIds,
        released: r.releasedUnitIds,
        audience: r.allowedOrgIds,
        managers: r.managingOrgIds,
        starts: r.startsAt,
        ends: r.endsAt,
      });
    });
  reservations
    .command('release <nodeId> <id>')
    .description('release idle reserved units to the spot market')
    .requiredOption('--units <ids>', 'comma-separated unit ids')
    .option('--reason <text>', 'for the audit trail')
    .option('--dry-run', 'show the reservation after, change nothing')
    .action(async (nodeId: string, id: string, opts: { units: string; reason?: string; dryRun?: boolean }, cmd: Command) => {
      const { client, json } = connect(cmd);
      const body = { unitIds: ids(opts.units), ...(opts.reason === undefined ? {} : { reason: opts.reason }), ...(opts.dryRun ? { dryRun: true } : {}) };
      const r = unwrap(await client.api.POST('/v1/nodes/{nodeId}/reservations/{id}/release', { params: { path: { nodeId, id } }, body }));
      if (json) return printJson(r);
      printFields({ reservation: r.id, released: r.releasedUnitIds, ...(opts.dryRun ? { note: 'dry run: nothing changed' } : {}) });
    });
  const addReclaim = (parent: Command) =>
    parent
      .command('reclaim <nodeId> <id>')
      .description('take released units back, terminating the spot VMs on them: preview, confirm, reclaim')
      .option('--units <ids>', 'comma-separated unit ids (with --count: the candidates)')
      .option('--count <n>', 'ask for n GPUs back: the plan of fewest evictions picks the units', positiveInt)
      .option('--dry-run', 'show the preview (or the plan) only')
      .option('--yes', 'confirm without asking')
      .option('--reason <text>', 'for the audit trail and the evicted tenants')
      .option('--expect <vmIds>', 'the VMs you previewed (default: those of this run’s preview); a different set is 409 eviction_set_changed')
      .action((nodeId: string, id: string, opts: ReclaimFlags, cmd: Command) => reclaim(cmd, nodeId, id, opts));
  addReclaim(reservations);
  addReclaim(program);

  const vms = program.command('vms').description('workloads on units');
  vms
    .command('list')
    .description('the VMs the key may see')
    .option('--node <nodeId>', 'on this node')
    .addOption(new Option('--status <status>', 'running or terminated').choices(['running', 'terminated']))
    .addOption(new Option('--tier <tier>').choices(['reserved', 'spot', 'on-demand']))
    .option('--limit <n>', 'at most n', positiveInt)
    .action(async (opts: { node?: string; status?: 'running' | 'terminated'; tier?: 'reserved' | 'spot' | 'on-demand'; limit?: number }, cmd: Command) => {
      const { client, json } = connect(cmd);
      const query = { ...(opts.node ? { nodeId: opts.node } : {}), ...(opts.status ? { status: opts.status } : {}), ...(opts.tier ? { tier: opts.tier } : {}) };
      const items = await collect(client, '/v1/vms', { query }, opts.limit);
      if (json) return printJson(items);
      printTable(
        ['id', 'node', 'units', 'tier', 'status', 'started'],
        items.map((v) => [v.id, v.nodeId, v.unitIds, v.tier, v.status, v.startedAt]),
      );
    });
  vms
    .command('terminate <id>')
    .description('terminate one of your VMs')
    .option('--yes', 'confirm without asking')
    .action(async (id: string, opts: { yes?: boolean }, cmd: Command) => {
      const { client, json } = connect(cmd);
      if (!opts.yes) await confirmOrDecline(`Terminate ${id}?`);
      const vm = unwrap(await client.api.POST('/v1/vms/{id}/terminate', { params: { path: { id } }, body: {} }));
      if (json) return printJson(vm);
      printFields({ vm: vm.id, status: vm.status, terminatedAt: vm.terminatedAt });
    });

  program
    .command('audit')
    .description('the audit trail the key may read, newest first')
    .option('--node <nodeId>')
    .option('--reservation <id>')
    .option('--limit <n>', 'at most n (default 50)', positiveInt, 50)
    .action(async (opts: { node?: string; reservation?: string; limit: number }, cmd: Command) => {
      const { client, json } = connect(cmd);
      const query = { ...(opts.node ? { nodeId: opts.node } : {}), ...(opts.reservation ? { reservationId: opts.reservation } : {}) };
      const items = await collect(client, '/v1/audit', { query }, opts.limit);
      if (json) return printJson(items);
      printTable(
        ['at', 'action', 'via', 'node', 'reservation', 'units', 'reason'],
        items.map((e) => [e.at, e.action, e.via, e.nodeId, e.reservationId, e.unitIds, e.reason]),
      );
    });

  const events = program.command('events').description("the acting org's events");
  events
    .command('tail')
    .description('print events as they commit (long poll); one JSON object per line with --json')
    .option('--types <types>', 'comma-separated event types')
    .option('--after <cursor>', 'start after this cursor (default: the oldest kept)')
    .option('--max <n>', 'stop after n events', positiveInt)
    .option('--no-follow', 'stop when caught up')
    .action(async (opts: { types?: string; after?: string; max?: number; follow: boolean }, cmd: Command) => {
      const { client, json } = connect(cmd);
      let seen = 0;
      if (opts.max === undefined || opts.max > 0) {
        for await (const e of client.events({
          ...(opts.types ? { types: ids(opts.types) as EventType[] } : {}),
          ...(opts.after ? { after: opts.after } : {}),
          stopWhenCaughtUp: !opts.follow,
        })) {
          console.log(json ? JSON.stringify(e) : `${e.at}  ${e.type.padEnd(26)} ${JSON.stringify(e.data)}`);
          if (opts.max !== undefined && ++seen >= opts.max) break;
        }
      }
    });
  return program;
}

/**
 * The exit code of what a command threw, after printing it (docs/product.md §5.9): a problem
 * by its class, in JSON with `--json`.
 */
export function readErrorExitCode(error: unknown, json: boolean): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
  if (error instanceof CliExit) {
    console.error(error.message);
    return error.code;
  }
  if (error instanceof ApiProblemError) {
    if (json) printJson(error.problem);
    else console.error(`${error.httpStatus} ${error.problem.code}: ${error.problem.detail}`);
    return readExitCode(error.httpStatus);
  }
  console.error(describeError(error));
  return exitCodes.unexpected;
}

/**
 * What went wrong, in words: a request that never reached the API (undici's bare "fetch failed")
 * says where it went and how to point the CLI elsewhere.
 */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; address?: string; port?: number; message?: string } | undefined;
  if (error.message !== 'fetch failed' || !cause) return error.message;
  const where = cause.address ? ` at ${cause.address}${cause.port ? `:${cause.port}` : ''}` : '';
  return `Could not reach the API${where} (${cause.code ?? cause.message ?? 'network error'}). Check the base URL: --base-url, GPU_RESERVATIONS_BASE_URL or the config file's "baseUrl".`;
}
