// network.ts: the configuration and state of an HTTP client.

export enum HttpStatus {
  Ok = 200,
  Created,
  Accepted,
  NoContent = 204,
  MovedPermanently = 301,
  Found,
  BadRequest = 400,
  Unauthorized,
  NotFound = 404,
  InternalError = 500,
}

export enum Method {
  Get = "GET",
  Post = "POST",
  Put = "PUT",
  Delete = "DELETE",
}

export enum RetryPolicy {
  Never,
  Linear,
  Exponential,
}

export const DEFAULT_TIMEOUT_MS = 30000;
export const USER_AGENT = "mcpt-demo/1.0";
export const MAX_REDIRECTS = 5;
export const RETRY_STATUSES = [502, 503, 504];

export interface Header {
  name: string;
  value: string;
}

export interface RequestOptions {
  method: Method;
  url: string;
  headers?: Header[];
  body?: string | Uint8Array;
  timeoutMs?: number;
  retry?: RetryPolicy;
}

export interface Response {
  status: HttpStatus;
  headers: Header[];
  body: string;
  redirected?: boolean;
}

export interface Transport {
  send(request: RequestOptions): Promise<Response>;
  close?(): void;
}

export type Middleware = (request: RequestOptions, next: Transport) => Promise<Response>;

export class Client {
  private middlewares: Middleware[] = [];
  baseUrl?: string;
  retries = 3;
  static readonly VERSION = "1.0.0";

  constructor(private readonly transport: Transport) {}

  use(middleware: Middleware): this {
    this.middlewares.push(middleware);
    return this;
  }

  async get(url: string): Promise<Response> {
    return this.transport.send({ method: Method.Get, url });
  }
}

export function isSuccess(status: HttpStatus): boolean {
  return status >= HttpStatus.Ok && status < HttpStatus.MovedPermanently;
}
