// The Worker's entry: one Go runtime per isolate, serving every request.
//
// github.com/syumai/workers v0.33.0 generates build/worker.mjs, which
// instantiates the Go wasm anew for every request (about 20 ms of CPU
// before the handler runs; see docs/readme-worker.md). This entry keeps
// the library's wasm_exec.js and runtime.mjs (written by `make worker`
// into build/) and instantiates once: wasm/worker/main.go calls
// workers.ServeNonBlock and workers.Ready and never returns, and every
// request goes to the same binding.handleRequest.
//
// Starting is synchronous (the Go program says it is ready before go.run
// returns), so no request waits on a promise another request created:
// workerd runs such a promise's callbacks in the creating request's
// context, which may be gone. When the Go program has exited or trapped
// (a crash), the next request starts a fresh one.
import "../build/wasm_exec.js";
import { createRuntimeContext, loadModule } from "../build/runtime.mjs";

// The Go side of the library calls this global.
globalThis.tryCatch = (fn) => {
  try {
    return { result: fn() };
  } catch (e) {
    return { error: e };
  }
};

let program; // { go, binding } of the running Go program

function start(mod, env, ctx) {
  const go = new Go();
  const binding = {};
  let ready = false;
  const instance = new WebAssembly.Instance(mod, {
    ...go.importObject,
    workers: { ready: () => { ready = true; } },
  });
  go.run(instance, createRuntimeContext({ env, ctx, binding })).catch(() => {});
  if (!ready || go.exited) {
    throw new Error("the Go program did not become ready");
  }
  return { go, binding };
}

// internalError answers a request the Go program could not: the API's
// error body, with status 500.
function internalError(err) {
  const body = { error: { code: "internal", message: `internal error: ${err}`, file: null, line: null } };
  return new Response(JSON.stringify(body, null, 2) + "\n", {
    status: 500,
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
}

export default {
  async fetch(req, env, ctx) {
    try {
      if (program === undefined || program.go.exited) {
        program = undefined;
        program = start(await loadModule(), env, ctx);
      }
      return await program.binding.handleRequest(req);
    } catch (err) {
      if (err instanceof WebAssembly.RuntimeError) {
        program = undefined; // a trap leaves the instance unusable: start afresh
      }
      return internalError(err);
    }
  },
};
