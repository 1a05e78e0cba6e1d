/**
 * The server's maintenance state while a backup is restored into it: every new request but the
 * health, readiness and metrics paths is answered 503 `maintenance` (http: app.ts's hook), and
 * the restore waits until the requests already running have ended. Streams (`text/event-stream`)
 * are not counted: they stay open for hours and read what the database holds.
 */
export class MaintenanceGate {
  private on = false;
  private running = 0;
  private readonly waiters = new Set<() => void>();

  get active(): boolean {
    return this.on;
  }

  /** Requests running now (the restore's own included). */
  get inFlight(): number {
    return this.running;
  }

  started(): void {
    this.running += 1;
  }

  ended(): void {
    this.running = Math.max(0, this.running - 1);
    for (const wake of this.waiters) wake();
  }

  /**
   * Turns maintenance on and waits until at most `own` requests run (the caller's); false, with
   * maintenance off again, when they did not end within `timeoutMs`.
   */
  async enter(own: number, timeoutMs: number): Promise<boolean> {
    this.on = true;
    if (this.running <= own) return true;
    const quiet = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        resolve(false);
      }, timeoutMs);
      const check = () => {
        if (this.running > own) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(true);
      };
      this.waiters.add(check);
    });
    if (!quiet) this.on = false;
    return quiet;
  }

  leave(): void {
    this.on = false;
  }
}
