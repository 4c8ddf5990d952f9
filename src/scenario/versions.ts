/**
 * Versions that shape a run, recorded in every permalink. A test checks them against the
 * installed packages, so an upgrade that changes them cannot go unnoticed.
 */
export const ENGINE_VERSION = '0.7.0';
export const SDK_VERSION = '2.4.0';
