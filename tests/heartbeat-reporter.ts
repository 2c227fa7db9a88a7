// A vitest reporter for scripts/vitest-watchdog.mjs: on every test event it rewrites a small file that
// names the test files in progress and, for each, the test or hook running now. The watchdog ends a
// run whose file stops changing (a program stuck in synchronous code holds its worker, and vitest's
// own timeouts cannot fire there) and prints what the file names. Active only when the watchdog
// sets WMRL_HEARTBEAT_FILE.
import { writeFileSync } from 'node:fs';
import type { Reporter, ReportedHookContext, TestCase, TestModule } from 'vitest/node';

export default class HeartbeatReporter implements Reporter {
  private readonly file = process.env.WMRL_HEARTBEAT_FILE;
  private readonly running = new Map<string, string>();
  // queued files wait for a worker; the one a worker is importing shows only here
  private readonly queued = new Set<string>();

  private beat(): void {
    if (!this.file) return;
    const running = [...this.running].map(([module, now]) => ({ module, now }));
    writeFileSync(this.file, JSON.stringify({ at: new Date().toISOString(), running, queued: [...this.queued] }));
  }

  private static where(m: TestModule): string {
    return `${m.project.name}: ${m.relativeModuleId}`;
  }

  onTestModuleQueued(m: TestModule): void {
    this.queued.add(HeartbeatReporter.where(m));
    this.beat();
  }

  onTestModuleStart(m: TestModule): void {
    this.queued.delete(HeartbeatReporter.where(m));
    this.running.set(HeartbeatReporter.where(m), 'running its tests (a worker reports each test late)');
    this.beat();
  }

  onTestCaseReady(t: TestCase): void {
    this.running.set(HeartbeatReporter.where(t.module), `test "${t.fullName}"`);
    this.beat();
  }

  onTestCaseResult(t: TestCase): void {
    this.running.set(HeartbeatReporter.where(t.module), `after test "${t.fullName}"`);
    this.beat();
  }

  onHookStart(h: ReportedHookContext): void {
    const e = h.entity;
    const module = e.type === 'module' ? e : e.module;
    this.running.set(HeartbeatReporter.where(module), `${h.name}${e.type === 'module' ? '' : ` of "${e.fullName}"`}`);
    this.beat();
  }

  onTestModuleEnd(m: TestModule): void {
    this.queued.delete(HeartbeatReporter.where(m));
    this.running.delete(HeartbeatReporter.where(m));
    this.beat();
  }
}
