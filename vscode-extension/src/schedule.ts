// When the review panel asks the server for the report again. The server's review of a big
// session takes seconds (12 MB: 2 to 4 s), so the panel
//   - waits for typing to pause for a while that grows with how long the last review took
//     (delayAfter), instead of asking 400 ms after every pause;
//   - asks only while it is visible: a hidden panel notes that it is out of date and asks
//     once when it is shown again;
//   - never has two review requests in flight: a newer one cancels the older (the LSP
//     cancellation token: $/cancelRequest), waits for it to end, then goes; an answer to a
//     cancelled request is dropped.
// Pure: no vscode import at run time (test/schedule.test.ts drives it with fake timers).

/** The part of a `vscode.CancellationTokenSource` used here. */
export interface Cancellation<Token> {
  readonly token: Token;
  cancel(): void;
  dispose(): void;
}

export interface Asker<Answer, Token> {
  /** Sends the request; the promise settles when the server has answered (or refused). */
  ask(token: Token): Promise<Answer>;
  /** Shows an answer (only those of requests not cancelled, newest last). */
  show(answer: Answer): void;
  /** A request failed, not because it was cancelled. */
  failed(error: unknown): void;
  /** Whether the panel is visible now. */
  visible(): boolean;
  /** A new cancellation source, one per request. */
  cancellation(): Cancellation<Token>;
}

/** The pause after an edit before asking, at least. */
export const DEBOUNCE_MS = 1000;
/** The pause after an edit before asking, at most. */
export const MAX_DEBOUNCE_MS = 8000;

/** How long to wait after an edit, given how long the last review took (ms): 1.5 times
 * that, within [DEBOUNCE_MS, MAX_DEBOUNCE_MS]: a review that takes longer than the pause
 * would be cancelled by the next edit's before it could be shown. */
export function delayAfter(lastMs: number | undefined): number {
  const wanted = lastMs === undefined ? DEBOUNCE_MS : Math.round(1.5 * lastMs);
  return Math.min(MAX_DEBOUNCE_MS, Math.max(DEBOUNCE_MS, wanted));
}

interface InFlight<Token> {
  source: Cancellation<Token>;
  done: Promise<void>;
}

export class ReviewScheduler<Answer, Token> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stale = false;
  private newest = 0;
  private inFlight: InFlight<Token> | undefined;
  private lastMs: number | undefined;
  private disposed = false;
  /** Requests sent, and of those, cancelled (for tests and the log). */
  sent = 0;
  cancelled = 0;

  constructor(
    private readonly asker: Asker<Answer, Token>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The session changed: ask after the pause if the panel is visible; else when it is shown. */
  changed(): void {
    if (this.disposed) return;
    this.stale = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.asker.visible()) this.timer = setTimeout(() => void this.update(), delayAfter(this.lastMs));
  }

  /** The panel was shown: ask now if it is out of date. */
  shown(): Promise<void> {
    return this.stale && !this.timer ? this.update() : Promise.resolve();
  }

  /** Whether an edit waits to be reviewed. */
  get pending(): boolean {
    return this.stale;
  }

  /** Ask now: an older request in flight is cancelled and waited for first. */
  async update(): Promise<void> {
    if (this.disposed) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stale = false;
    const mine = ++this.newest;
    const older = this.inFlight;
    if (older) {
      older.source.cancel();
      await older.done;
      if (mine !== this.newest || this.disposed) return; // a newer update went meanwhile
    }
    const source = this.asker.cancellation();
    const began = this.now();
    this.sent++;
    const done = this.asker.ask(source.token).then(
      (answer) => {
        if (mine === this.newest && !this.disposed) {
          this.lastMs = this.now() - began;
          this.asker.show(answer);
        } else {
          this.cancelled++;
        }
      },
      (error: unknown) => {
        if (mine === this.newest && !this.disposed) this.asker.failed(error);
        else this.cancelled++;
      },
    );
    const flight: InFlight<Token> = {
      source,
      done: done.finally(() => {
        source.dispose();
        if (this.inFlight === flight) this.inFlight = undefined;
      }),
    };
    this.inFlight = flight;
    await flight.done;
  }

  /** Requests in flight now (0 or 1). */
  get inFlightCount(): number {
    return this.inFlight ? 1 : 0;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.inFlight?.source.cancel();
  }
}
