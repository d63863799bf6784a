// Runs Material for MkDocs' search worker in Node: node material_search_worker.js WORKER INDEX QUERY…
// Prints one JSON line per query: the locations of the results, best first (each page's entry,
// then its sections', as the worker groups them). A query is sent as typed: one without
// quotes or Lunr's operators (+ - : ^ ~ *), which Material's page would rewrite first.
const fs = require("fs");
const path = require("path");
const vm = require("vm");
const [worker, indexFile, ...queries] = process.argv.slice(2);
const lunrDir = path.join(path.dirname(worker), "..", "lunr");
const replies = [];
let handler = null;
globalThis.self = globalThis;
globalThis.addEventListener = (type, listener) => { handler = listener; };
globalThis.postMessage = (message) => replies.push(message);
// The worker loads Lunr's languages with importScripts(`../lunr/min/lunr.es.min.js`, …).
globalThis.importScripts = (...urls) => {
  for (const url of urls) vm.runInThisContext(fs.readFileSync(path.join(lunrDir, url.replace(/^\.\.\/lunr\//, "")), "utf8"));
};
vm.runInThisContext(fs.readFileSync(worker, "utf8"));
// The page adds its options (search.suggest only proposes completions: off).
const index = { options: { suggest: false }, ...JSON.parse(fs.readFileSync(indexFile, "utf8")) };
const reply = async () => {
  for (let i = 0; i < 500 && !replies.length; i++) await new Promise((r) => setTimeout(r, 10));
  return replies.shift();
};
(async () => {
  handler({ data: { type: 0, data: index } });
  await reply();
  for (const query of queries) {
    handler({ data: { type: 2, data: query } });
    const found = await reply();
    console.log(JSON.stringify(found.data.items.flat().map((item) => item.location)));
  }
})();
