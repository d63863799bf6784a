// Runs a Zensical search worker in Node: node search_worker.js WORKER INDEX QUERY…
// Prints one JSON line per query: the locations of the results, best first.
const fs = require("fs");
const [worker, indexFile, ...queries] = process.argv.slice(2);
const replies = [];
globalThis.self = { postMessage: (message) => replies.push(message) };
eval(fs.readFileSync(worker, "utf8"));
const index = JSON.parse(fs.readFileSync(indexFile, "utf8"));
const reply = async () => {
  for (let i = 0; i < 200 && !replies.length; i++) await new Promise((r) => setTimeout(r, 10));
  return replies.shift();
};
const everything = { input: { type: "operator", data: { operator: "and", operands: [] } },
                     aggregation: { input: [] } };
(async () => {
  self.onmessage({ data: { type: 0, data: index } });
  await reply();
  for (const input of queries) {
    // A browser's postMessage hands the worker a copy (the worker changes what it is given).
    self.onmessage({ data: structuredClone({ type: 2, data: { input, filter: everything } }) });
    const found = await reply();
    console.log(JSON.stringify(found.data.items.map((item) => index.items[item.id].location)));
  }
})();
