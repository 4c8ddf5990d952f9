/**
 * The library's scenarios of streams that resume, sessions that expire and batches (issue 15
 * §4), in gallery order; library.ts lists them with the rest.
 */
import streamResumesAfterServerClose from '../../content/scenarios/stream-resumes-after-server-close-2025-11-25.json' with { type: 'json' };
import streamClosedBeforeTheResult from '../../content/scenarios/stream-closed-before-the-result-is-resumed-and-gets-it-2025-11-25.json' with { type: 'json' };
import reportedTs2499ResumedStreamLosesLastEventId from '../../content/scenarios/reported-ts2499-resumed-stream-loses-last-event-id.json' with { type: 'json' };
import sessionExpiresMidCallClientNeverReinitializes from '../../content/scenarios/session-expires-mid-call-client-never-reinitializes.json' with { type: 'json' };
import reportedClaudeCode94273One404LosesTheServer from '../../content/scenarios/reported-claude-code-94273-one-404-loses-the-server.json' with { type: 'json' };
import strictHostReinitializesAfterSessionExpiry from '../../content/scenarios/strict-host-reinitializes-after-session-expiry.json' with { type: 'json' };
import batchHoldsARequestAndItsCancel from '../../content/scenarios/batch-holds-a-request-and-its-cancel-2025-03-26.json' with { type: 'json' };

export const STREAMS_SCENARIOS: readonly unknown[] = [
  streamResumesAfterServerClose,
  streamClosedBeforeTheResult,
  reportedTs2499ResumedStreamLosesLastEventId,
  sessionExpiresMidCallClientNeverReinitializes,
  strictHostReinitializesAfterSessionExpiry,
  reportedClaudeCode94273One404LosesTheServer,
  batchHoldsARequestAndItsCancel,
];
