import { describeBrowser, resolveBrowser } from './browser';

/** Runs once per test run (the config itself is loaded again in every worker): say which browser the run drives. */
export default function setup() {
  console.log(describeBrowser(resolveBrowser()));
}
