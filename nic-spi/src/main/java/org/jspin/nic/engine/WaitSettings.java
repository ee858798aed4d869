package org.jspin.nic.engine;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/** Reads the waiting and progress settings, refusing a malformed value rather than keeping the default. */
final class WaitSettings {
    private WaitSettings() {
    }

    /**
     * @return the system property {@code name} as a count of microseconds, or {@code fallback} when unset
     * @throws MpiException ERR_ARG naming the property and the value when it is not a non-negative integer
     */
    static long microseconds(String name, long fallback) {
        String v = System.getProperty(name);
        if (v == null) {
            return fallback;
        }
        try {
            long n = Long.parseLong(v.trim());
            if (n >= 0 && n <= 60_000_000) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new MpiException(ErrorClass.ERR_ARG, "-D" + name + " must be microseconds in [0, 60000000], got '" + v + "'");
    }
}
