// The call a session service written in JS gets for every event of a run, with its request built
// here: no method or member name crosses from wasm per event.
export function appendEvent(service, session, event) {
  return service.appendEvent({ session, event });
}
