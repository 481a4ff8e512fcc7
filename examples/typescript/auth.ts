// auth.ts: sessions and permissions of a web application.

export enum Role {
  Guest,
  User,
  Moderator,
  Admin,
}

export enum Permission {
  Read = 1,
  Write = 2,
  Delete = 4,
  Share = 8,
  Manage = 16,
}

export enum TokenKind {
  Access = "access",
  Refresh = "refresh",
}

export const SESSION_TTL_SECONDS = 3600;
export const COOKIE_NAME = "sid";
export const SECURE_COOKIES = true;

export interface Credentials {
  username: string;
  password: string;
  otp?: string;
}

export interface Session {
  readonly token: string;
  userId: number;
  role: Role;
  expiresAt: number;
  refreshToken?: string;
  scopes?: string[];
}

export interface AuthProvider {
  login(credentials: Credentials): Promise<Session>;
  logout(session: Session): Promise<void>;
  refresh?(token: string): Promise<Session>;
  readonly name: string;
}

export type Grants = Record<Role, Permission[]>;

export class SessionStore {
  private sessions: Session[] = [];
  maxSessions = 1000;
  lastCleanup?: number;

  constructor(readonly provider: AuthProvider) {}

  add(session: Session): void {
    this.sessions.push(session);
  }

  expire(now: number): number {
    const before = this.sessions.length;
    this.sessions = this.sessions.filter((s) => s.expiresAt > now);
    this.lastCleanup = now;
    return before - this.sessions.length;
  }
}

export function can(role: Role, permission: Permission): boolean {
  return role === Role.Admin || permission === Permission.Read;
}
