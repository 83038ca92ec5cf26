import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Device cookies live this long after the last successful sign-in that set them. */
export const deviceCookieMaxAgeSeconds = 180 * 24 * 3600;

const cookiePath = '/api/v1/auth';

/**
 * OWASP's "device cookies": a browser that signed in successfully gets a signed, HttpOnly cookie bound to
 * that login; a later attempt carrying it is counted per device instead of under the e-mail's ceiling, so a
 * distributed attack that fills the ceiling does not lock out the owner's browsers (login-limiter.ts).
 * One cookie per login (its name is an HMAC of the e-mail, so it does not reveal it); the value is a random
 * id and an HMAC of (name, id). Only sent to /api/v1/auth, SameSite=Strict, Secure in production.
 */
export class DeviceCookies {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly secure: boolean,
  ) {
    // A key of its own, derived from JWT_SECRET: a device cookie's signature is never valid anywhere else.
    this.key = createHmac('sha256', secret).update('newsroom login device cookie').digest();
  }

  /** The device id of the request's valid device cookie for `email`, or undefined. */
  deviceOf(request: FastifyRequest, email: string): string | undefined {
    const header = request.headers.cookie;
    if (!header) return undefined;
    const name = this.nameFor(email);
    const value = request.server.parseCookie(header)[name];
    const [id, signature, ...rest] = value?.split('.') ?? [];
    if (!id || !signature || rest.length > 0) return undefined;
    const expected = Buffer.from(this.sign(name, id));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
  }

  /** Sets a fresh device cookie for `email` after a successful sign-in. */
  remember(reply: FastifyReply, email: string): void {
    const name = this.nameFor(email);
    const id = randomBytes(16).toString('base64url');
    reply.setCookie(name, `${id}.${this.sign(name, id)}`, {
      path: cookiePath,
      httpOnly: true,
      sameSite: 'strict',
      secure: this.secure,
      maxAge: deviceCookieMaxAgeSeconds,
    });
  }

  private nameFor(email: string): string {
    const tag = createHmac('sha256', this.key).update(`name\n${email.trim().toLowerCase()}`).digest('hex');
    return `newsroom_device_${tag.slice(0, 16)}`;
  }

  private sign(name: string, id: string): string {
    return createHmac('sha256', this.key).update(`value\n${name}\n${id}`).digest('base64url');
  }
}
