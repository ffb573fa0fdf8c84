/** The error a registry throws when it must refuse to start. */
export class RegistryError extends Error {
  constructor(
    readonly handlerType: string,
    readonly reason: string,
    readonly source?: string,
  ) {
    super(`handler "${handlerType}"${source && source !== 'builtin' ? ` (${source})` : ''}: ${reason}`);
    this.name = 'RegistryError';
  }
}
