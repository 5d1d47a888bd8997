import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Config } from '../../config.js';

/** How long registration waits for a host name to resolve before taking it unchecked (delivery checks again). */
const REGISTRATION_LOOKUP_MS = 3000;

/** The error a delivery fails with when its host resolves to an address webhooks may not reach. */
export class RefusedTargetError extends Error {
  readonly code = 'EWEBHOOKTARGET';
}

type TargetSettings = Pick<Config, 'webhookAllowPrivate' | 'webhookAllowedHosts' | 'webhookLookup'>;

/** `[::1]` (a URL's hostname) → `::1`. */
const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** `127.0.0.1, a loopback address` when the address is not public unicast, else undefined. */
function rangeRefusal(parsed: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  const name = range.replace(/([A-Z])/g, ' $1').toLowerCase();
  return `${parsed.toString()}, ${/^([aeio]|un(?!i))/.test(name) ? 'an' : 'a'} ${name} address`;
}

const ipv4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * The IPv4 addresses an IPv6 address carries, for the forms that route to or stand for them:
 * IPv4-compatible (`::/96`, `::127.0.0.1`; not `::` and `::1`), IPv4-mapped (`::ffff:0:0/96`; ipaddr's
 * `process` already turns these into IPv4), IPv4-translated (`::ffff:0:0:0/96`), NAT64's well-known
 * prefix (`64:ff9b::/96`), 6to4 (`2002::/16`, the gateway in bits 16–47) and Teredo (`2001::/32`: the
 * server in bits 32–63, the client inverted in the last 32 bits). Undefined for any other address.
 */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const p = address.parts;
  const zeros = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  if (zeros(0, 6) && !(p[6] === 0 && p[7] <= 1)) return [ipv4Of(p[6], p[7])];
  if (zeros(0, 5) && p[5] === 0xffff) return [ipv4Of(p[6], p[7])];
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return [ipv4Of(p[6], p[7])];
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return [ipv4Of(p[6], p[7])];
  if (p[0] === 0x2002) return [ipv4Of(p[1], p[2])];
  if (p[0] === 0x2001 && p[1] === 0) return [ipv4Of(p[2], p[3]), ipv4Of(p[6] ^ 0xffff, p[7] ^ 0xffff)];
  return undefined;
}

/**
 * Which addresses webhooks may reach (docs/security.md, API7). Only public unicast addresses:
 * loopback, private (RFC 1918, ULA), link-local (169.254.169.254, the cloud metadata address),
 * carrier-grade NAT, multicast, unspecified and reserved addresses are refused, and an IPv6 form
 * that embeds an IPv4 address (`embeddedIPv4`) is judged by that address, unless the operator
 * opens them (WEBHOOK_ALLOW_PRIVATE, WEBHOOK_ALLOWED_HOSTS).
 * A host is checked at registration and again at every delivery, at connection time: the address
 * that was checked is the one connected to, so a name that resolves elsewhere later (DNS
 * rebinding) is refused too.
 */
export class WebhookTargets {
  private readonly names = new Set<string>();
  private readonly ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  private readonly resolve: LookupFunction;
  private readonly allowPrivate: boolean;

  constructor(settings: TargetSettings) {
    this.resolve = settings.webhookLookup ?? (dnsLookup as LookupFunction);
    this.allowPrivate = settings.webhookAllowPrivate;
    for (const entry of settings.webhookAllowedHosts) {
      if (entry.includes('/')) this.ranges.push(ipaddr.parseCIDR(entry));
      else if (isIP(bare(entry)))
        this.ranges.push([ipaddr.process(bare(entry)), ipaddr.process(bare(entry)).kind() === 'ipv4' ? 32 : 128]);
      else this.names.add(bare(entry));
    }
  }

  /** Why webhooks may not reach this address (`127.0.0.1, a loopback address`), or undefined. */
  refusal(address: string): string | undefined {
    if (this.allowPrivate) return undefined;
    let parsed: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      parsed = ipaddr.process(address);
    } catch {
      return `${address}, not an address`;
    }
    if (this.allowedRange(parsed)) return undefined;
    const embedded = parsed.kind() === 'ipv6' ? embeddedIPv4(parsed as ipaddr.IPv6) : undefined;
    if (embedded) {
      // judged by the IPv4 address it carries (an allowed range matches that address too)
      for (const inner of embedded) {
        if (this.allowedRange(inner)) continue;
        const reason = rangeRefusal(inner);
        if (reason) return `${parsed.toString()} embeds ${reason}`;
      }
      return undefined;
    }
    return rangeRefusal(parsed);
  }

  private allowedRange(parsed: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    return this.ranges.some(([range, bits]) => parsed.kind() === range.kind() && parsed.match(range, bits));
  }

  /** The host is let through by name (WEBHOOK_ALLOWED_HOSTS). */
  private namedAllowed(hostname: string): boolean {
    return this.allowPrivate || this.names.has(bare(hostname));
  }

  /**
   * Registration: why the URL's host may not receive webhooks, or undefined. A name that does not
   * resolve now is taken (it is checked again at every delivery).
   */
  async refuseAtRegistration(url: URL): Promise<string | undefined> {
    const host = bare(url.hostname);
    if (this.namedAllowed(host)) return undefined;
    if (isIP(host)) return this.refusal(host);
    const addresses = await this.lookupAll(host).catch(() => [] as LookupAddress[]);
    for (const { address } of addresses) {
      const reason = this.refusal(address);
      if (reason) return `${host} resolves to ${reason}`;
    }
    return undefined;
  }

  /** Delivery, before connecting: an address in the URL itself is never looked up, so it is checked here. */
  refuseLiteral(url: URL): string | undefined {
    const host = bare(url.hostname);
    return isIP(host) && !this.namedAllowed(host) ? this.refusal(host) : undefined;
  }

  /**
   * The `lookup` for a delivery's connection: resolves the host, refuses it when any address is
   * not allowed, and hands the checked addresses to the socket, which connects to one of them.
   */
  lookupFor(hostname: string): LookupFunction {
    if (this.namedAllowed(hostname)) return this.resolve;
    return (host, options, callback) => {
      this.resolve(host, { ...options, all: true }, (error, result) => {
        if (error) return callback(error, '', 0);
        const addresses = result as unknown as LookupAddress[];
        for (const { address } of addresses) {
          const reason = this.refusal(address);
          if (reason)
            return callback(
              new RefusedTargetError(`${host} resolves to ${reason}; webhooks only reach public addresses`),
              '',
              0,
            );
        }
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        if (addresses.length === 0)
          return callback(Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' }), '', 0);
        callback(null, addresses[0].address, addresses[0].family);
      });
    };
  }

  private lookupAll(host: string): Promise<LookupAddress[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('lookup timed out')), REGISTRATION_LOOKUP_MS);
      this.resolve(host, { all: true }, (error, result) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(result as unknown as LookupAddress[]);
      });
    });
  }
}
