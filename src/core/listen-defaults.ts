// `kurel serve`'s address when no flag names one (docs/service.md). Read by the CLI's options and
// by the supervisor, which opens its socket before the CLI has parsed them: the two must agree.

/** The host `kurel serve` listens on unless `--host` says otherwise. */
export const DEFAULT_HOST = '127.0.0.1';

/** The port `kurel serve` listens on unless `--port` says otherwise, as the flag's text. */
export const DEFAULT_PORT = '8080';
