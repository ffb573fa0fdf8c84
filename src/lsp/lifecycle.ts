import {
  AbstractMessageReader,
  type DataCallback,
  type Disposable,
  ErrorCodes,
  Message,
  type MessageReader,
  type MessageWriter,
} from 'vscode-languageserver/node';

/**
 * The server's lifecycle as LSP 3.17 states it (docs/editors.md), kept where messages arrive so
 * that it holds for every method, those the server handles and those it does not: before
 * `initialize`, a request is answered `ServerNotInitialized` (-32002) and a notification dropped,
 * but `exit`; after `shutdown`, a request is answered `InvalidRequest` (-32600) and a
 * notification dropped, but `exit`. A second `initialize` is an `InvalidRequest` too.
 */
export class LifecycleReader extends AbstractMessageReader {
  private state: 'new' | 'initialized' | 'shut down' = 'new';

  constructor(
    private readonly reader: MessageReader,
    private readonly writer: MessageWriter,
  ) {
    super();
    reader.onError((error) => this.fireError(error));
    reader.onClose(() => this.fireClose());
    reader.onPartialMessage((info) => this.firePartialMessage(info));
  }

  listen(callback: DataCallback): Disposable {
    return this.reader.listen((message) => {
      if (Message.isRequest(message)) {
        const refusal = this.refusalOf(message.method);
        if (refusal) {
          void this.writer.write({ jsonrpc: '2.0', id: message.id, error: refusal } as Message);
          return;
        }
        if (message.method === 'initialize') this.state = 'initialized';
        else if (message.method === 'shutdown') this.state = 'shut down';
      } else if (Message.isNotification(message) && message.method !== 'exit' && this.state !== 'initialized') return;
      callback(message);
    });
  }

  override dispose(): void {
    super.dispose();
    this.reader.dispose();
  }

  private refusalOf(method: string): { code: number; message: string } | undefined {
    if (this.state === 'new' && method !== 'initialize') {
      return { code: ErrorCodes.ServerNotInitialized, message: `the server is not initialized: ${method} is answered after initialize` };
    }
    if (this.state === 'initialized' && method === 'initialize') return { code: ErrorCodes.InvalidRequest, message: 'the server is already initialized' };
    if (this.state === 'shut down') return { code: ErrorCodes.InvalidRequest, message: `the server is shut down: ${method} is not answered after shutdown` };
    return undefined;
  }
}
