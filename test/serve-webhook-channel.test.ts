/**
 * The webhook proxy channel of Probot's setup page (src/serve/webhook-channel.ts): asked for only where Probot
 * would ask for it, handed to Probot when made (Probot writes it to .env and registers the App with it), and
 * when smee.io cannot be reached, Probot told to skip it and a warning that says why, in a word, and what to do.
 * The process as a user starts it, without a network: test/serve-trust.test.ts.
 */
import { describe, expect, it } from "vitest";
import { setupChannel } from "../src/serve/webhook-channel.js";

const made = { createChannel: () => Promise.resolve("https://smee.io/abc123") };
const unreachable = {
  createChannel: () =>
    Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: { code: "ENOTFOUND" } })),
};

describe("setupChannel", () => {
  it.each<[string, NodeJS.ProcessEnv]>([
    ["APP_ID is set (no setup page)", { APP_ID: "123" }],
    ["in production (no setup page)", { NODE_ENV: "production" }],
    ["a channel of one's own", { WEBHOOK_PROXY_URL: "https://smee.io/mine" }],
    ["NO_SMEE_SETUP=true", { NO_SMEE_SETUP: "true" as const }],
    ["on Glitch", { PROJECT_DOMAIN: "x" }],
  ])("asks for nothing where Probot would not: %s", async (_, env) => {
    const before = { ...env };
    let asked = false;
    const maker = { createChannel: () => ((asked = true), Promise.resolve("x")) };
    expect(await setupChannel(env, maker)).toEqual({});
    expect(asked).toBe(false);
    expect(env).toEqual(before);
  });

  it("hands the channel it made to Probot's setup, which writes it to .env as ever", async () => {
    const env: NodeJS.ProcessEnv = {};
    const channel = await setupChannel(env, made);
    expect(channel.warning).toBeUndefined();
    expect(await channel.SmeeClient!.createChannel()).toBe("https://smee.io/abc123");
    expect(env).toEqual({});
  });

  it("smee.io unreachable: Probot skips the channel in this process, and the warning says why and what to do", async () => {
    const env: NodeJS.ProcessEnv = {};
    const channel = await setupChannel(env, unreachable);
    expect(channel.SmeeClient).toBeUndefined();
    expect(env.NO_SMEE_SETUP).toBe("true");
    expect(channel.warning).toMatch(/^no webhook proxy: smee\.io cannot be reached \(ENOTFOUND\), /);
    expect(channel.warning).toMatch(/WEBHOOK_PROXY_URL=/);
    expect(channel.warning).not.toMatch(/\n/);
  });
});
