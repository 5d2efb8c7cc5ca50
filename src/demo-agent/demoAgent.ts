import { stdioStream } from './agentKit';
import { serveDemoAgent } from './demoServer';

// The program Tandem starts for the "Demo agent (offline)" preset (built to dist/demo-agent.js).
serveDemoAgent(stdioStream());
