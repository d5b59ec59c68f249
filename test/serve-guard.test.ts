/**
 * The guard's budget for unverified bodies (src/serve/guard.ts), on its own: charged with the bytes that
 * arrived, one address's share of it, and who the sender is (its address,
 * an IPv6 host by its /64, behind trusted proxies the address the farthest one saw). The server's behaviour
 * under slow and flooding senders is tried on `npm start` in serve-trust.test.ts.
 */
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { ByteBudget, MAX_WEBHOOK_BYTES, senderOf } from "../src/serve/guard.js";
import { serverSettings, SettingsError } from "../src/serve/settings.js";

const MB = 1024 * 1024;

/** A budget whose requests, when cut off, say so in `cut` (as the guard answers them 503). */
function budgetOf(limit: number) {
  const budget = new ByteBudget(limit);
  const cut: string[] = [];
  const open = (address: string, name = address) => budget.open(address, () => cut.push(name));
  return { budget, cut, open };
}

describe("the budget of unverified bodies", () => {
  it("holds nothing for a request that declared a length and sent nothing", () => {
    const { budget, open } = budgetOf(64 * MB);
    for (const a of ["10.0.0.1", "10.0.0.2", "10.0.0.3"]) open(a);
    expect(budget.held()).toBe(0);
    // GitHub's delivery, from elsewhere, fits whole.
    expect(budget.take(open("140.82.115.1"), 25 * MB)).toBe(true);
  });

  it("lets one address alone use all of it (behind a proxy every sender is one address): nothing refused for its address", () => {
    const { budget, cut, open } = budgetOf(64 * MB);
    const requests = Array.from({ length: 40 }, () => open("10.0.0.1"));
    for (const r of requests.slice(0, 32)) expect(budget.take(r, 2 * MB)).toBe(true);
    expect(budget.held("10.0.0.1")).toBe(64 * MB);
    // Full: a request of the same address is refused its bytes, and cuts nobody off.
    expect(budget.take(requests[39]!, 1)).toBe(false);
    expect(cut).toEqual([]);
    // A request's end gives its bytes back.
    budget.close(requests[0]!);
    expect(budget.take(requests[39]!, 2 * MB)).toBe(true);
  });

  it("an address within its share that needs room cuts off the largest holder past its share, its largest request first", () => {
    const { budget, cut, open } = budgetOf(64 * MB);
    expect(budget.perAddress).toBe(32 * MB);
    const a = [open("10.0.0.1", "a0"), open("10.0.0.1", "a1"), open("10.0.0.1", "a2")];
    expect(budget.take(a[0]!, 20 * MB)).toBe(true);
    expect(budget.take(a[1]!, 24 * MB)).toBe(true);
    const b = open("10.0.0.2", "b0");
    expect(budget.take(b, 18 * MB)).toBe(true);
    expect(budget.held()).toBe(62 * MB);
    // GitHub's delivery needs 25 MB: 10.0.0.1 holds 44 MB, past its 32: its 24 MB request is cut off.
    const github = open("140.82.115.1", "github");
    expect(budget.take(github, 25 * MB)).toBe(true);
    expect(cut).toEqual(["a1"]);
    expect(budget.held("10.0.0.1")).toBe(20 * MB);
    // A cut-off request gets no more room.
    expect(budget.take(a[1]!, 1)).toBe(false);
    // Nobody is past its share now: the full budget refuses, and cuts nobody off.
    expect(budget.take(a[2]!, 2 * MB)).toBe(false);
    expect(budget.take(open("10.0.0.9"), 2 * MB)).toBe(false);
    expect(cut).toEqual(["a1"]);
    expect(budget.held()).toBe(63 * MB);
  });

  it("an address past its own share cuts nobody off", () => {
    const { budget, cut, open } = budgetOf(64 * MB);
    expect(budget.take(open("10.0.0.1"), 40 * MB)).toBe(true);
    const b = open("10.0.0.2");
    expect(budget.take(b, 20 * MB)).toBe(true);
    expect(budget.take(b, 13 * MB)).toBe(false);
    expect(cut).toEqual([]);
  });

  it("a share is half the budget, or one of GitHub's largest deliveries when that is more", () => {
    expect(new ByteBudget(30 * MB).perAddress).toBe(MAX_WEBHOOK_BYTES);
    expect(new ByteBudget(25 * MB).perAddress).toBe(25 * MB);
    expect(new ByteBudget(100 * MB).perAddress).toBe(50 * MB);
  });
});

const request = (remoteAddress: string | undefined, forwarded?: string) =>
  ({
    socket: { remoteAddress },
    headers: forwarded === undefined ? {} : { "x-forwarded-for": forwarded },
  }) as unknown as IncomingMessage;

describe("the sender of a request", () => {
  it("is the socket's address: IPv4 as such, mapped or not, IPv6 by its /64", () => {
    expect(senderOf(request("203.0.113.9"))).toBe("203.0.113.9");
    expect(senderOf(request("::ffff:203.0.113.9"))).toBe("203.0.113.9");
    expect(senderOf(request("2001:db8:1:2:aaaa::1"))).toBe("2001:db8:1:2::/64");
    expect(senderOf(request("2001:db8:1:2:bbbb:cccc:dddd:eeee"))).toBe("2001:db8:1:2::/64");
    expect(senderOf(request("2001:db8::1"))).toBe("2001:db8:0:0::/64");
    expect(senderOf(request("::1"))).toBe("0:0:0:0::/64");
    expect(senderOf(request(undefined))).toBe("unknown");
  });

  it("never takes X-Forwarded-For without trusted proxies, and behind them only what they appended", () => {
    expect(senderOf(request("10.0.0.5", "1.2.3.4"))).toBe("10.0.0.5");
    // One proxy: the address it saw is the last entry; what the sender wrote before it is not taken.
    expect(senderOf(request("10.0.0.5", "6.6.6.6, 203.0.113.9"), 1)).toBe("203.0.113.9");
    expect(senderOf(request("10.0.0.5", "6.6.6.6, 203.0.113.9, 10.0.0.7"), 2)).toBe("203.0.113.9");
    expect(senderOf(request("10.0.0.5"), 1)).toBe("10.0.0.5");
  });

  it("PLUGIN_REVIEW_PROXY_HOPS: a whole number from 0 to 10, else the server does not start", () => {
    expect(serverSettings({}).proxyHops).toBe(0);
    expect(serverSettings({ PLUGIN_REVIEW_PROXY_HOPS: "2" }).proxyHops).toBe(2);
    for (const bad of ["1.5", "-1", "11", "x"])
      expect(() => serverSettings({ PLUGIN_REVIEW_PROXY_HOPS: bad })).toThrow(SettingsError);
  });

  it("GHE_HOST and GHE_PROTOCOL as Probot joins them (<protocol>://<host>/api/v3), else the server does not start", () => {
    for (const good of ["ghe.example.com", "ghe.example.com:8443", "10.0.0.5:3000", "[::1]:3000"])
      expect(() => serverSettings({ GHE_HOST: good, GHE_PROTOCOL: "http" })).not.toThrow();
    for (const bad of [
      "https://ghe.example.com",
      "ghe.example.com/api/v3",
      " ghe.example.com",
      "ghe.example.com:",
    ])
      expect(() => serverSettings({ GHE_HOST: bad })).toThrow(
        new SettingsError(
          `GHE_HOST must be the server's host name, with a port if it needs one (ghe.example.com), without a scheme or a path (GHE_PROTOCOL says http or https), not '${bad}'`,
        ),
      );
    expect(() => serverSettings({ GHE_HOST: "ghe.example.com", GHE_PROTOCOL: "https:" })).toThrow(
      new SettingsError("GHE_PROTOCOL must be https or http, not 'https:'"),
    );
  });
});
