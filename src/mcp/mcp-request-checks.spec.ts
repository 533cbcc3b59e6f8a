import { hostAllowed, McpOriginRules, originAllowed } from './mcp-request-checks';

const LOCAL: McpOriginRules = { publicUrl: null, allowedOrigins: [], allowedHosts: [] };
const PUBLIC: McpOriginRules = {
  publicUrl: 'https://cal.example.org',
  allowedOrigins: ['https://agent.example.net'],
  allowedHosts: ['cal.internal'],
};

describe('the MCP endpoint’s Origin and Host rules', () => {
  it('without PUBLIC_URL answers loopback names on any port, and nothing else (DNS rebinding)', () => {
    for (const host of ['localhost:3000', '127.0.0.1:8080', '[::1]:3000', 'localhost']) expect(hostAllowed(host, LOCAL)).toBe(true);
    for (const host of ['evil.example', 'evil.example:3000', 'localhost.evil.example', undefined])
      expect(hostAllowed(host, LOCAL)).toBe(false);
  });

  it('with PUBLIC_URL answers its host and MCP_ALLOWED_HOSTS (a name without a port matches any port)', () => {
    expect(hostAllowed('cal.example.org', PUBLIC)).toBe(true);
    expect(hostAllowed('cal.internal:3000', PUBLIC)).toBe(true);
    expect(hostAllowed('localhost:3000', PUBLIC)).toBe(false);
    expect(hostAllowed('evil.example', PUBLIC)).toBe(false);
  });

  it('lets requests without Origin through, and browsers only from our origins', () => {
    expect(originAllowed(undefined, 'http://localhost:3000', LOCAL)).toBe(true);
    expect(originAllowed('http://localhost:3000', 'http://localhost:3000', LOCAL)).toBe(true);
    expect(originAllowed('http://evil.example', 'http://localhost:3000', LOCAL)).toBe(false);
    expect(originAllowed('null', 'http://localhost:3000', LOCAL)).toBe(false);
    expect(originAllowed('https://cal.example.org', 'http://10.0.0.5:3000', PUBLIC)).toBe(true);
    expect(originAllowed('https://agent.example.net', 'http://10.0.0.5:3000', PUBLIC)).toBe(true);
    expect(originAllowed('http://10.0.0.5:3000', 'http://10.0.0.5:3000', PUBLIC)).toBe(false);
    expect(originAllowed('not a url', 'http://localhost:3000', LOCAL)).toBe(false);
  });
});
