import { type Answerable, sendText } from './respond.js';

/** An RFC 9457 problem detail, the body of every request error. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** The id of the request, as in the `X-Request-Id` header and the server log. */
  requestId?: string;
  [extension: string]: unknown;
}

const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** A request the service cannot serve; the edge answers it as `application/problem+json`. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly extensions: Readonly<Record<string, unknown>> = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }
}

/** Answers with an RFC 9457 problem; the detail is meant for the client and never holds a stack. */
export function sendProblem(res: Answerable, problem: HttpProblem): void {
  const requestId = typeof res.locals['requestId'] === 'string' ? res.locals['requestId'] : undefined;
  const body: Problem = {
    ...problem.extensions,
    type: 'about:blank',
    title: TITLES[problem.status] ?? 'Error',
    status: problem.status,
    detail: problem.detail,
    ...(requestId ? { requestId } : {}),
  };
  for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  sendText(res, problem.status, 'application/problem+json', JSON.stringify(body));
}
