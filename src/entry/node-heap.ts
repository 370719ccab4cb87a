import { setFlagsFromString } from 'node:v8';

// V8 doubles the young generation (up to 16 MB per semi-space) whenever most of it survives a
// scavenge, as a burst of long-lived connections (a thousand tabs' live-sync listeners) does, and
// keeps it committed long after: up to +15 MB of RSS for 1,000 idle listeners. Not growing it
// keeps them at their live size; scavenges stay sub-millisecond. The factor is read at each
// growth, so setting it when the server starts applies from then on (loading the bundle may
// already have grown it: then this only stops it growing further).
setFlagsFromString('--semi-space-growth-factor=1');
