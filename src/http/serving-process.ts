import cluster from 'node:cluster';
import type { ServiceOptions } from './service.js';
import { isKurelMessage, type ProcessMessage, type SupervisorMessage } from './supervisor/messages.js';
import { type DefinitionsOnTheWire, fromWire } from './supervisor/served-definitions.js';
import type { ServiceIo } from './supervisor/service-io.js';

/** True in a serving process that `kurel serve`'s supervisor forked (see supervisor/early-start.ts's `forkServing`). */
export function isServingProcess(): boolean {
  return cluster.isWorker && process.env['KUREL_SUPERVISED'] === '1' && typeof process.send === 'function';
}

/**
 * Runs a serving process of `kurel serve` (docs/service.md "Processes and the supervisor"): the
 * supervisor has read the command line and the configuration, and sends the options of the
 * service when the process asks, with the definitions it read for every process (the process
 * never reads its own), so the process loads no CLI; it loads the service meanwhile.
 * Sets the exit code the service ends with (2 when the supervisor went away before it answered).
 */
export async function runServingProcess(): Promise<void> {
  const io = processIo();
  const [service, sent] = await Promise.all([import('./service.js'), optionsFromSupervisor()]);
  if (!sent) {
    process.exitCode = 2;
    return;
  }
  let code: number;
  try {
    code = await service.runService(sent.options, io, { definitions: fromWire(sent.definitions) });
  } catch (err) {
    io.stderr(`kurel: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    code = 2;
  }
  // The channel to the supervisor would keep a stopped or refused process alive; closed this
  // way, node:cluster lets the process end with its own exit code.
  if (process.connected) cluster.worker?.disconnect();
  process.exitCode = code;
}

/** The options and the definitions the supervisor sends once asked; undefined when it goes away first. */
function optionsFromSupervisor(): Promise<{ options: ServiceOptions; definitions: DefinitionsOnTheWire } | undefined> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (!isKurelMessage<SupervisorMessage>(message) || message.kurel !== 'options') return;
      // Where the link to the supervisor (supervisor/link.ts) says the process takes requests.
      process.env['KUREL_SUPERVISED_ADDRESS'] = message.address;
      // The supervisor relays what the CLI built for this very type (commands/serve.ts).
      done({ options: message.options as ServiceOptions, definitions: message.definitions });
    };
    const onDisconnect = () => done(undefined);
    const done = (sent: { options: ServiceOptions; definitions: DefinitionsOnTheWire } | undefined) => {
      process.off('message', onMessage);
      process.off('disconnect', onDisconnect);
      resolve(sent);
    };
    process.on('message', onMessage);
    process.once('disconnect', onDisconnect);
    process.send?.({ kurel: 'options?' } satisfies ProcessMessage);
  });
}

// A supervisor that has gone away closes the pipes: what is left to write is dropped, and the
// process ends as the supervisor's disconnect tells it to (supervisor/link.ts).
function processIo(): ServiceIo {
  const gone = { stdout: false, stderr: false };
  process.stdout.on('error', () => {
    gone.stdout = true;
  });
  process.stderr.on('error', () => {
    gone.stderr = true;
  });
  return {
    stdout: (text) => {
      if (!gone.stdout) process.stdout.write(text);
    },
    stderr: (text) => {
      if (!gone.stderr) process.stderr.write(text);
    },
    env: process.env,
  };
}
