import { describe, expect, it } from "vitest";
import { enterpriseApiUrl } from "../../../src/github/api/enterprise.js";

describe("enterpriseApiUrl (GHE_HOST, GHE_PROTOCOL)", () => {
  it("is github.com's without GHE_HOST, else the server's API as Probot joins it", () => {
    expect(enterpriseApiUrl({})).toBeUndefined();
    expect(enterpriseApiUrl({ GHE_HOST: "" })).toBeUndefined();
    expect(enterpriseApiUrl({ GHE_HOST: "ghe.example.com" })).toBe("https://ghe.example.com/api/v3");
    expect(enterpriseApiUrl({ GHE_HOST: "ghe.example.com", GHE_PROTOCOL: "" })).toBe(
      "https://ghe.example.com/api/v3",
    );
    expect(enterpriseApiUrl({ GHE_HOST: "ghe.example.com", GHE_PROTOCOL: "HTTPS" })).toBe(
      "HTTPS://ghe.example.com/api/v3",
    );
    expect(enterpriseApiUrl({ GHE_HOST: "127.0.0.1:8080", GHE_PROTOCOL: "http" })).toBe(
      "http://127.0.0.1:8080/api/v3",
    );
  });

  it.each([
    "https://ghe.example.com",
    "ghe.example.com/",
    "ghe example.com",
    "ghe.example.com:port",
    "user@ghe",
  ])("refuses a GHE_HOST of '%s', naming it", (host) => {
    expect(() => enterpriseApiUrl({ GHE_HOST: host })).toThrow(/^GHE_HOST must be the server's host name/);
  });

  it("refuses a GHE_PROTOCOL other than http or https, naming it", () => {
    expect(() => enterpriseApiUrl({ GHE_HOST: "ghe.example.com", GHE_PROTOCOL: "ftp" })).toThrow(
      "GHE_PROTOCOL must be https or http, not 'ftp'",
    );
  });
});
