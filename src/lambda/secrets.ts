/**
 * Secrets from SSM Parameter Store (SecureString), read once per cold start and cached. The parameter
 * names come from the environment (set in serverless.yml); the values never appear in logs.
 */
import { GetParametersCommand, SSMClient } from "@aws-sdk/client-ssm";

export interface Secrets {
  appId?: string;
  privateKey?: string;
  webhookSecret?: string;
}

/** Each secret: the plain environment variable (local runs) and the one naming its SSM parameter. */
const VARS: Record<keyof Secrets, { direct: string; parameter: string }> = {
  appId: { direct: "APP_ID", parameter: "APP_ID_PARAMETER" },
  privateKey: { direct: "PRIVATE_KEY", parameter: "PRIVATE_KEY_PARAMETER" },
  webhookSecret: { direct: "WEBHOOK_SECRET", parameter: "WEBHOOK_SECRET_PARAMETER" },
};

const cache = new Map<string, Promise<Secrets>>();

/** One client per container; exported so that tests can mock it (aws-sdk-client-mock) inside the bundle. */
export const ssm = new SSMClient({});

/** Reads the named secrets; plain environment variables (APP_ID, PRIVATE_KEY, WEBHOOK_SECRET) win, for local runs. */
export function loadSecrets(keys: (keyof Secrets)[], env: NodeJS.ProcessEnv = process.env): Promise<Secrets> {
  const id = keys.join(",");
  let p = cache.get(id);
  if (!p) {
    p = fetchSecrets(keys, env);
    cache.set(id, p);
    // A failed read is not cached: the next invocation tries again.
    p.catch(() => cache.delete(id));
  }
  return p;
}

async function fetchSecrets(keys: (keyof Secrets)[], env: NodeJS.ProcessEnv): Promise<Secrets> {
  const out: Secrets = {};
  const wanted: [keyof Secrets, string][] = [];
  for (const k of keys) {
    const { direct, parameter } = VARS[k];
    const value = env[direct];
    const name = env[parameter];
    if (value) out[k] = value;
    else if (name) wanted.push([k, name]);
    else throw new Error(`configuration error: neither ${direct} nor ${parameter} is set`);
  }
  if (wanted.length === 0) return out;
  const res = await ssm.send(
    new GetParametersCommand({ Names: wanted.map(([, n]) => n), WithDecryption: true }),
  );
  for (const [k, name] of wanted) {
    const value = res.Parameters?.find((p) => p.Name === name)?.Value;
    if (!value) throw new Error(`configuration error: SSM parameter ${name} (${k}) is missing or empty`);
    out[k] = value;
  }
  return out;
}

/** For tests: forget cached secrets. */
export function clearSecretsCache(): void {
  cache.clear();
}
