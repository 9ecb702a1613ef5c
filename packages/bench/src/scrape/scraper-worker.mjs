// The scraper: a worker thread, so that reading and parsing the exposition never runs on the main thread, whose
// time per scrape is what the benchmark measures (the main thread plays the job that is scraped).
// Messages in: { url } scrapes once; { url, everyMillis } scrapes every `everyMillis` until { stop: true }.
// Messages out: { bytes, ms } after each scrape; { stopped: true, scrapes } once stopped.
import { request } from 'node:http';
import { parentPort } from 'node:worker_threads';

/** GETs `url`; resolves with the size of the body in bytes. */
function get(url) {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

let timer;
let running = false;
let scrapes = 0;

parentPort.on('message', async (message) => {
  if (message.stop === true) {
    running = false;
    clearTimeout(timer);
    parentPort.postMessage({ stopped: true, scrapes });
    return;
  }
  if (message.everyMillis === undefined) {
    const start = performance.now();
    const bytes = await get(message.url);
    parentPort.postMessage({ bytes, ms: performance.now() - start });
    return;
  }
  scrapes = 0;
  running = true;
  // Scrapes one after the other, each starting `everyMillis` after the previous one started, as Prometheus does.
  const loop = async () => {
    const start = performance.now();
    await get(message.url);
    scrapes++;
    if (!running) return;
    timer = setTimeout(loop, Math.max(0, message.everyMillis - (performance.now() - start)));
  };
  timer = setTimeout(loop, 0);
});
