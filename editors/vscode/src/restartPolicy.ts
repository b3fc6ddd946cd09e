// Restart the server after a crash, but give up when it keeps crashing:
// more than `maxRestarts` crashes inside `windowMs` means something is broken
// that a restart will not fix.

export class RestartPolicy {
  private crashes: number[] = [];

  constructor(
    private readonly maxRestarts = 4,
    private readonly windowMs = 3 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a crash and tells whether to start the server again. */
  shouldRestart(): boolean {
    const t = this.now();
    this.crashes = this.crashes.filter((c) => t - c < this.windowMs);
    this.crashes.push(t);
    return this.crashes.length <= this.maxRestarts;
  }

  /** A manual restart starts with a clean record. */
  reset(): void {
    this.crashes = [];
  }

  get recentCrashes(): number {
    return this.crashes.length;
  }
}
