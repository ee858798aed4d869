package org.jspin.nic.match;

/**
 * A FIFO list of entries that can be searched in order and unlinked anywhere in O(1) (an intrusive
 * doubly linked list): the posted-receive list and the unexpected-message list of a matcher.
 *
 * @param <T> the payload of an entry
 */
final class MatchList<T> {
    /** One entry: match bits, ignore bits (zero for messages) and the payload. */
    static final class Entry<T> {
        final long bits;
        final long ignore;
        final T payload;
        Entry<T> prev;
        Entry<T> next;

        Entry(long bits, long ignore, T payload) {
            this.bits = bits;
            this.ignore = ignore;
            this.payload = payload;
        }
    }

    private Entry<T> head;
    private Entry<T> tail;
    private int size;

    int size() {
        return size;
    }

    void append(Entry<T> e) {
        e.prev = tail;
        e.next = null;
        if (tail == null) {
            head = e;
        } else {
            tail.next = e;
        }
        tail = e;
        size++;
    }

    void unlink(Entry<T> e) {
        if (e.prev == null) {
            head = e.next;
        } else {
            e.prev.next = e.next;
        }
        if (e.next == null) {
            tail = e.prev;
        } else {
            e.next.prev = e.prev;
        }
        e.prev = null;
        e.next = null;
        size--;
    }

    /** @return the first entry (in list order) whose own bits, under its ignore bits, match {@code bits} */
    Entry<T> firstEntryMatching(long bits) {
        for (Entry<T> e = head; e != null; e = e.next) {
            if (MatchBits.matches(bits, e.bits, e.ignore)) {
                return e;
            }
        }
        return null;
    }

    /** @return the first entry whose bits match {@code match} under {@code ignore} */
    Entry<T> firstMatchedBy(long match, long ignore) {
        for (Entry<T> e = head; e != null; e = e.next) {
            if (MatchBits.matches(e.bits, match, ignore)) {
                return e;
            }
        }
        return null;
    }

    /** @return the entry carrying exactly {@code payload} (identity), or null */
    Entry<T> find(T payload) {
        for (Entry<T> e = head; e != null; e = e.next) {
            if (e.payload == payload) {
                return e;
            }
        }
        return null;
    }

    /** @return the first entry whose payload {@code which} accepts, or null */
    Entry<T> first(java.util.function.Predicate<? super T> which) {
        for (Entry<T> e = head; e != null; e = e.next) {
            if (which.test(e.payload)) {
                return e;
            }
        }
        return null;
    }
}
