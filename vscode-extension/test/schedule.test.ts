// When the review panel asks for the report (schedule.ts), with fake timers and a server
// whose answers the test releases by hand.
import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";
import { type Asker, DEBOUNCE_MS, MAX_DEBOUNCE_MS, ReviewScheduler, delayAfter } from "../src/schedule";

interface Token {
  isCancellationRequested: boolean;
}

interface Request {
  n: number;
  token: Token;
  answer(value: string): void;
  refuse(error: unknown): void;
}

/** A server that holds every request until the test answers it; the clock is the fake one. */
class Server implements Asker<string, Token> {
  requests: Request[] = [];
  shown: string[] = [];
  errors: unknown[] = [];
  open = 0;
  mostOpen = 0;
  isVisible = true;
  ask(token: Token): Promise<string> {
    this.open++;
    this.mostOpen = Math.max(this.mostOpen, this.open);
    return new Promise<string>((resolve, reject) => {
      const done = () => this.open--;
      this.requests.push({
        n: this.requests.length + 1,
        token,
        answer: (value) => { done(); resolve(value); },
        refuse: (error) => { done(); reject(error); },
      });
    });
  }
  show(answer: string): void { this.shown.push(answer); }
  failed(error: unknown): void { this.errors.push(error); }
  visible(): boolean { return this.isVisible; }
  cancellation() {
    const token: Token = { isCancellationRequested: false };
    return { token, cancel: () => { token.isCancellationRequested = true; }, dispose: () => {} };
  }
}

let clock = 0;
function tick(ms: number): void {
  clock += ms;
  mock.timers.tick(ms);
}
/** Lets the promise callbacks run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

beforeEach(() => {
  clock = 0;
  mock.timers.enable({ apis: ["setTimeout"] });
});
afterEach(() => mock.timers.reset());

function scheduler(server: Server) {
  return new ReviewScheduler<string, Token>(server, () => clock);
}

test("a burst of typing is one request, a second after the last key, not 400 ms after each pause", async () => {
  const server = new Server();
  const s = scheduler(server);
  for (let i = 0; i < 5; i++) {
    s.changed();
    tick(450); // the old debounce (400 ms) would have asked after each of these pauses
  }
  assert.equal(server.requests.length, 0);
  tick(DEBOUNCE_MS - 450);
  await settle();
  assert.equal(server.requests.length, 1);
  server.requests[0].answer("v1");
  await settle();
  assert.deepEqual(server.shown, ["v1"]);
});

test("a hidden panel asks nothing until it is shown, then once", async () => {
  const server = new Server();
  server.isVisible = false;
  const s = scheduler(server);
  s.changed();
  s.changed();
  tick(60_000);
  await settle();
  assert.equal(server.requests.length, 0);
  assert.equal(s.pending, true);
  server.isVisible = true;
  void s.shown();
  void s.shown();
  await settle();
  assert.equal(server.requests.length, 1);
  server.requests[0].answer("v1");
  await settle();
  assert.deepEqual(server.shown, ["v1"]);
  void s.shown(); // up to date: nothing to ask
  await settle();
  assert.equal(server.requests.length, 1);
});

test("never two requests in flight: the newer cancels the older and waits for it", async () => {
  const server = new Server();
  const s = scheduler(server);
  void s.update();
  await settle();
  assert.equal(server.requests.length, 1);
  const first = server.requests[0];
  s.changed();
  tick(DEBOUNCE_MS);
  await settle();
  assert.equal(first.token.isCancellationRequested, true); // $/cancelRequest sent
  assert.equal(server.requests.length, 1); // not sent before the older one ended
  void s.update(); // and another one meanwhile: still one to come
  await settle();
  first.answer("stale"); // the server had finished it anyway
  await settle();
  assert.equal(server.requests.length, 2);
  assert.equal(server.mostOpen, 1);
  server.requests[1].answer("fresh");
  await settle();
  assert.deepEqual(server.shown, ["fresh"]); // the cancelled one's answer is dropped
  assert.deepEqual(server.errors, []);
  assert.equal(s.inFlightCount, 0);
});

test("a cancelled request's refusal is no failure; another request's is", async () => {
  const server = new Server();
  const s = scheduler(server);
  void s.update();
  await settle();
  void s.update();
  await settle();
  server.requests[0].refuse({ code: -32800, message: "cancelled" });
  await settle();
  server.requests[1].refuse(new Error("the server fell over"));
  await settle();
  assert.equal(server.errors.length, 1);
  assert.match(String(server.errors[0]), /fell over/);
});

test("the pause grows with how long the last review took", async () => {
  assert.equal(delayAfter(undefined), DEBOUNCE_MS);
  assert.equal(delayAfter(200), DEBOUNCE_MS);
  assert.equal(delayAfter(3000), 4500);
  assert.equal(delayAfter(60_000), MAX_DEBOUNCE_MS);
  const server = new Server();
  const s = scheduler(server);
  void s.update();
  await settle();
  tick(3000); // the server takes 3 s (a 12 MB session)
  server.requests[0].answer("v1");
  await settle();
  s.changed();
  tick(4499);
  await settle();
  assert.equal(server.requests.length, 1);
  tick(1);
  await settle();
  assert.equal(server.requests.length, 2);
});

test("a disposed panel asks nothing and cancels what is in flight", async () => {
  const server = new Server();
  const s = scheduler(server);
  void s.update();
  await settle();
  s.changed();
  s.dispose();
  tick(MAX_DEBOUNCE_MS);
  await settle();
  assert.equal(server.requests.length, 1);
  assert.equal(server.requests[0].token.isCancellationRequested, true);
  server.requests[0].answer("late");
  await settle();
  assert.deepEqual(server.shown, []);
});
