/**
 * `serverless package` (osls) offline, with no AWS credentials: the CloudFormation template holds the
 * webhook route, both functions, the FIFO queue with its dead-letter queue and alarm, least-privilege roles,
 * and nothing secret.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundled } from "./bundle.js";
import { ROOT } from "../helpers.js";

let out: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let resources: Record<string, { Type: string; Properties: any }>;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "plugin-review-sls-"));
  ensureBundled();
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith("AWS_")) delete env[k];
  execFileSync("npx", ["osls", "package", "--stage", "prod", "--region", "us-east-1", "--package", out], {
    cwd: ROOT,
    env: { ...env, AWS_SDK_LOAD_CONFIG: "0", HOME: out },
    stdio: "pipe",
    timeout: 120_000,
  });
  resources = (
    JSON.parse(readFileSync(join(out, "cloudformation-template-update-stack.json"), "utf8")) as {
      Resources: typeof resources;
    }
  ).Resources;
}, 180_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

describe("serverless package", () => {
  it("routes POST /api/github/webhooks to the receiver", () => {
    const routes = ofType("AWS::ApiGatewayV2::Route").map(([, r]) => r.Properties.RouteKey);
    expect(routes).toEqual(["POST /api/github/webhooks"]);
  });

  it("has both functions on nodejs22.x arm64, each with its own role", () => {
    const fns = Object.fromEntries(ofType("AWS::Lambda::Function").map(([k, r]) => [k, r.Properties]));
    expect(Object.keys(fns).sort()).toEqual(["ReceiverLambdaFunction", "WorkerLambdaFunction"]);
    for (const f of Object.values(fns)) {
      expect(f.Runtime).toBe("nodejs22.x");
      expect(f.Architectures).toEqual(["arm64"]);
    }
    expect(fns.ReceiverLambdaFunction.Role).toEqual({ "Fn::GetAtt": ["ReceiverRole", "Arn"] });
    expect(fns.WorkerLambdaFunction.Role).toEqual({ "Fn::GetAtt": ["WorkerRole", "Arn"] });
    expect(fns.ReceiverLambdaFunction.Timeout).toBeLessThanOrEqual(10);
  });

  it("has a FIFO queue deduplicated by delivery id, redriving to a dead-letter queue with an alarm", () => {
    const q = resources.DeliveryQueue!.Properties;
    expect(q).toMatchObject({ FifoQueue: true, ContentBasedDeduplication: false });
    expect(q.RedrivePolicy).toEqual({
      deadLetterTargetArn: { "Fn::GetAtt": ["DeadLetterQueue", "Arn"] },
      maxReceiveCount: 5,
    });
    expect(resources.DeadLetterQueue!.Properties.FifoQueue).toBe(true);
    const worker = resources.WorkerLambdaFunction!.Properties;
    expect(q.VisibilityTimeout).toBeGreaterThanOrEqual(worker.Timeout);
    expect(resources.DeadLetterAlarm!.Type).toBe("AWS::CloudWatch::Alarm");
    const mapping = ofType("AWS::Lambda::EventSourceMapping")[0]![1].Properties;
    expect(mapping.FunctionResponseTypes).toEqual(["ReportBatchItemFailures"]);
    expect(mapping.EventSourceArn).toEqual({ "Fn::GetAtt": ["DeliveryQueue", "Arn"] });
  });

  it("grants each function only what it uses", () => {
    const actions = (role: string) =>
      resources[role]!.Properties.Policies.flatMap(
        (p: { PolicyDocument: { Statement: { Action: string | string[] }[] } }) =>
          p.PolicyDocument.Statement.flatMap((s) => s.Action),
      ).sort();
    expect(actions("ReceiverRole")).toEqual(["sqs:SendMessage", "ssm:GetParameters"]);
    expect(actions("WorkerRole")).toEqual([
      "sqs:ChangeMessageVisibility",
      "sqs:DeleteMessage",
      "sqs:GetQueueAttributes",
      "sqs:ReceiveMessage",
      "ssm:GetParameters",
    ]);
  });

  it("keeps secrets out of the template and the receiver zip small", () => {
    const template = readFileSync(join(out, "cloudformation-template-update-stack.json"), "utf8");
    expect(template).not.toMatch(/PRIVATE KEY|WEBHOOK_SECRET"\s*:|APP_ID"\s*:/);
    expect(template).toContain("/plugin-review/prod/webhook-secret");
    expect(statSync(join(out, "receiver.zip")).size).toBeLessThan(500 * 1024);
  });
});
