// Go's events reach the UI through the Wails runtime; every WarrenApi
// on…Event method subscribes through here.
import { EventsOn } from '../../wailsjs/runtime/runtime';

/** Calls handler for each event emitted under name; returns the unsubscribe function. */
export function subscribe<T>(name: string, handler: (ev: T) => void): () => void {
  const off = EventsOn(name, (ev: T) => handler(ev));
  return typeof off === 'function' ? off : () => {};
}
