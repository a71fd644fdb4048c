// The pickup use case: what the rest of settle may use of it. Its other files are its own.
export { lookAtInboxes, runPickup, type PickedFile, type PickupDeps } from './pickup.js';
