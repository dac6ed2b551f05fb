// Delay and failure injection of the embedded external systems. A real system is slow and fails
// sometimes; the embedded ones do too, on demand, so that the service's handling of a pending or
// failed call can be shown and tested. Settings give every port's starting values
// (PORTS_DELAY_MS, PORTS_FAILURE_RATE); each port's control object changes them at run time.

export interface PortControl {
  /** Added to every call. */
  delayMs: number;
  /** Share of calls (0 to 1) that fail. */
  failureRate: number;
  /** The next n calls fail. */
  failNext: number;
  /** Calls wait until the returned function is called: an operation stays in its pending state. */
  hold(): () => void;
}

/** What an external system's failure looks like to the service. */
export class PortFailure extends Error {
  readonly port: string;
  readonly operation: string;
  constructor(port: string, operation: string, message = 'the external system failed') {
    super(`${port}.${operation}: ${message}`);
    this.name = 'PortFailure';
    this.port = port;
    this.operation = operation;
  }
}

interface ControlState extends PortControl {
  gate(operation: string): Promise<void>;
}

export function createControl(port: string, initial: { delayMs: number; failureRate: number }): ControlState {
  let held: Promise<void> | undefined;
  const control: ControlState = {
    delayMs: initial.delayMs,
    failureRate: initial.failureRate,
    failNext: 0,
    hold() {
      let release!: () => void;
      const h = new Promise<void>((r) => (release = r));
      held = h;
      return () => {
        if (held === h) held = undefined;
        release();
      };
    },
    async gate(operation) {
      if (held) await held;
      if (control.delayMs > 0) await new Promise((r) => setTimeout(r, control.delayMs));
      if (control.failNext > 0) {
        control.failNext--;
        throw new PortFailure(port, operation, 'failure injected');
      }
      if (control.failureRate > 0 && Math.random() < control.failureRate)
        throw new PortFailure(port, operation, 'failure injected');
    },
  };
  return control;
}

/** Wraps every method of an implementation so that each call passes the control's gate first. */
export function controlled<T extends object>(impl: T, control: ControlState): T {
  return new Proxy(impl, {
    get(target, name, receiver) {
      const member: unknown = Reflect.get(target, name, receiver);
      if (typeof member !== 'function') return member;
      return async (...args: unknown[]) => {
        await control.gate(String(name));
        const result: unknown = await Reflect.apply(member, target, args);
        return result;
      };
    },
  });
}
