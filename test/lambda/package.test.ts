/**
 * `serverless package` (osls) offline, with no AWS credentials: the CloudFormation template holds the
 * webhook route, the three functions (receiver, worker, and the scheduled recovery), the FIFO queue with its
 * dead-letter queue and alarm (with its SNS topic), least-privilege roles, and nothing secret.
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
type Resources = Record<string, { Type: string; Condition?: string; Properties: any }>;
interface Template {
  Resources: Resources;
  Conditions?: Record<string, unknown>;
  Outputs: Record<string, { Value: unknown }>;
}
let template: Template;
let resources: Resources;

/** `osls package` into a folder of `out`, with extra arguments; the template it wrote. */
function oslsPackage(folder: string, ...args: string[]): Template {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith("AWS_")) delete env[k];
  const dest = join(out, folder);
  execFileSync(
    "npx",
    ["osls", "package", "--stage", "prod", "--region", "us-east-1", "--package", dest, ...args],
    {
      cwd: ROOT,
      env: { ...env, AWS_SDK_LOAD_CONFIG: "0", HOME: out },
      stdio: "pipe",
      timeout: 120_000,
    },
  );
  return JSON.parse(
    readFileSync(join(dest, "cloudformation-template-update-stack.json"), "utf8"),
  ) as Template;
}

/** CloudFormation's value of a condition made of Fn::Not and Fn::Equals on literals (what serverless.yml uses). */
function holds(condition: unknown): boolean {
  const c = condition as { "Fn::Not"?: [unknown]; "Fn::Equals"?: [unknown, unknown] };
  if (c["Fn::Not"]) return !holds(c["Fn::Not"][0]);
  if (c["Fn::Equals"]) return c["Fn::Equals"][0] === c["Fn::Equals"][1];
  throw new Error(`unexpected condition ${JSON.stringify(condition)}`);
}

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "plugin-review-sls-"));
  ensureBundled();
  template = oslsPackage("default");
  resources = template.Resources;
}, 180_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

/**
 * The template with both parameters given (they are independent; the default template shows each one off):
 * one packaging, shared by the tests of either, since each run of osls takes seconds.
 */
let withParamsTemplate: Template | undefined;
function withParams(): Template {
  withParamsTemplate ??= oslsPackage(
    "with-params",
    "--param=requireOrgConfig=true",
    "--param=alarmEmail=ops@example.com",
  );
  return withParamsTemplate;
}

/** The names of a zip file's entries, from its central directory. */
function zipEntries(path: string): string[] {
  const zip = readFileSync(path);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  const names: string[] = [];
  for (let at = zip.readUInt32LE(end + 16), i = 0; i < count; i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    names.push(zip.toString("utf8", at + 46, at + 46 + nameLength));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return names;
}

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

describe("serverless package", () => {
  it("routes POST /api/github/webhooks to the receiver", () => {
    const routes = ofType("AWS::ApiGatewayV2::Route").map(([, r]) => r.Properties.RouteKey);
    expect(routes).toEqual(["POST /api/github/webhooks"]);
  });

  it("has the three functions on nodejs24.x arm64, each with its own role", () => {
    const fns = Object.fromEntries(ofType("AWS::Lambda::Function").map(([k, r]) => [k, r.Properties]));
    expect(Object.keys(fns).sort()).toEqual([
      "ReceiverLambdaFunction",
      "RecoveryLambdaFunction",
      "WorkerLambdaFunction",
    ]);
    for (const f of Object.values(fns)) {
      expect(f.Runtime).toBe("nodejs24.x");
      expect(f.Architectures).toEqual(["arm64"]);
    }
    expect(fns.ReceiverLambdaFunction.Role).toEqual({ "Fn::GetAtt": ["ReceiverRole", "Arn"] });
    expect(fns.WorkerLambdaFunction.Role).toEqual({ "Fn::GetAtt": ["WorkerRole", "Arn"] });
    expect(fns.RecoveryLambdaFunction.Role).toEqual({ "Fn::GetAtt": ["RecoveryRole", "Arn"] });
    expect(fns.ReceiverLambdaFunction.Timeout).toBeLessThanOrEqual(10);
  });

  it("runs the recovery every 5 minutes, from its own bundle", () => {
    const rules = ofType("AWS::Events::Rule").map(([, r]) => r.Properties);
    expect(rules).toEqual([
      expect.objectContaining({
        ScheduleExpression: "rate(5 minutes)",
        State: "ENABLED",
        Targets: [expect.objectContaining({ Arn: { "Fn::GetAtt": ["RecoveryLambdaFunction", "Arn"] } })],
      }),
    ]);
    const recovery = resources.RecoveryLambdaFunction!.Properties;
    expect(recovery.Handler).toBe("dist-lambda/recovery/index.handler");
    expect(recovery.Environment.Variables).toMatchObject({
      PLUGIN_REVIEW_RECOVERY_WINDOW_HOURS: "1",
      QUEUE_URL: { Ref: "DeliveryQueue" },
    });
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
    // The worker knows its last try (it holds a failing run while it reviews).
    expect(worker.Environment.Variables.PLUGIN_REVIEW_MAX_RECEIVES).toBe(
      String(q.RedrivePolicy.maxReceiveCount),
    );
    expect(resources.DeadLetterAlarm!.Type).toBe("AWS::CloudWatch::Alarm");
    const mapping = ofType("AWS::Lambda::EventSourceMapping")[0]![1].Properties;
    expect(mapping.FunctionResponseTypes).toEqual(["ReportBatchItemFailures"]);
    // One message per invocation: no message is handed back untried, which would count as a receive.
    expect(mapping.BatchSize).toBe(1);
    expect(mapping.EventSourceArn).toEqual({ "Fn::GetAtt": ["DeliveryQueue", "Arn"] });
  });

  it("passes the organisation-configuration setting to the worker: off by default, on with requireOrgConfig=true", () => {
    const env = (t: Template) =>
      t.Resources.WorkerLambdaFunction!.Properties.Environment.Variables.PLUGIN_REVIEW_REQUIRE_ORG_CONFIG;
    const recoveryEnv = (t: Template) =>
      t.Resources.RecoveryLambdaFunction!.Properties.Environment.Variables.PLUGIN_REVIEW_REQUIRE_ORG_CONFIG;
    expect([env(template), recoveryEnv(template)]).toEqual(["false", "false"]);
    expect([env(withParams()), recoveryEnv(withParams())]).toEqual(["true", "true"]);
  }, 180_000);

  it("sends the dead-letter alarm to an SNS topic, which mails alarmEmail when one is given", () => {
    const alarm = resources.DeadLetterAlarm!.Properties;
    expect(resources.AlarmTopic!.Type).toBe("AWS::SNS::Topic");
    expect(alarm.AlarmActions).toEqual([{ Ref: "AlarmTopic" }]);
    expect(alarm.OKActions).toEqual([{ Ref: "AlarmTopic" }]);
    expect(template.Outputs.AlarmTopicArn!.Value).toEqual({ Ref: "AlarmTopic" });
    const subscription = resources.AlarmEmailSubscription!;
    expect(subscription.Condition).toBe("HasAlarmEmail");
    expect(holds(template.Conditions!.HasAlarmEmail)).toBe(false); // no address by default: no subscription
    const withEmail = withParams();
    expect(holds(withEmail.Conditions!.HasAlarmEmail)).toBe(true);
    expect(withEmail.Resources.AlarmEmailSubscription!.Properties).toEqual({
      TopicArn: { Ref: "AlarmTopic" },
      Protocol: "email",
      Endpoint: "ops@example.com",
    });
  }, 180_000);

  it("names the osls version package.json installs as its frameworkVersion", () => {
    const yml = readFileSync(join(ROOT, "serverless.yml"), "utf8");
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    expect(/^frameworkVersion: "([^"]+)"/m.exec(yml)?.[1]).toBe(pkg.devDependencies.osls);
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
      // A recheck's review, queued in its head commit's group.
      "sqs:SendMessage",
      "ssm:GetParameters",
    ]);
    // A missed delivery, queued where the receiver would have queued it.
    expect(actions("RecoveryRole")).toEqual(["sqs:SendMessage", "ssm:GetParameters"]);
  });

  it("packs the analysis thread beside the handler of each function that reviews", () => {
    for (const fn of ["worker", "recovery"])
      expect(zipEntries(join(out, "default", `${fn}.zip`))).toEqual(
        expect.arrayContaining([`dist-lambda/${fn}/index.mjs`, `dist-lambda/${fn}/analysis-thread.mjs`]),
      );
    expect(zipEntries(join(out, "default", "receiver.zip"))).not.toContain(
      "dist-lambda/receiver/analysis-thread.mjs",
    );
  });

  it("keeps secrets out of the template and the receiver zip small", () => {
    const text = readFileSync(join(out, "default", "cloudformation-template-update-stack.json"), "utf8");
    expect(text).not.toMatch(/PRIVATE KEY|WEBHOOK_SECRET"\s*:|APP_ID"\s*:/);
    expect(text).toContain("/plugin-review/prod/webhook-secret");
    expect(statSync(join(out, "default", "receiver.zip")).size).toBeLessThan(500 * 1024);
  });
});
