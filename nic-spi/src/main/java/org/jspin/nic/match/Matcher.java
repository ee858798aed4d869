package org.jspin.nic.match;

/**
 * MPI message matching, shared by every NIC so that ordering is identical on all backends: a list
 * of posted receives (Portals' priority list) and a list of unexpected messages (the overflow
 * list), both in FIFO order.
 *
 * <ul>
 *   <li>A message that arrives matches the earliest posted receive that accepts it; if none does
 *       it waits on the unexpected list.</li>
 *   <li>A receive that is posted matches the earliest unexpected message it accepts; if none it
 *       waits on the posted list.</li>
 * </ul>
 *
 * <p>So wildcard receives match in arrival order, and two messages from one source in one context
 * that one receive could both take are matched in the order they arrived: MPI's non-overtaking rule,
 * given a fabric that keeps each sender's order. Owned by one progress thread: not thread-safe.
 *
 * @param <R> what a posted receive carries (the request)
 * @param <M> what an unexpected message carries (its header and buffered data)
 */
public final class Matcher<R, M> {
    private final MatchList<R> posted = new MatchList<>();
    private final MatchList<M> unexpected = new MatchList<>();

    /**
     * Posts a receive.
     *
     * @param match  its match bits ({@link MatchBits#select})
     * @param ignore its ignore bits ({@link MatchBits#ignore})
     * @return the unexpected message it takes at once (removed from the unexpected list), or null
     *         if the receive now waits on the posted list
     */
    public M post(long match, long ignore, R receive) {
        MatchList.Entry<M> m = unexpected.firstMatchedBy(match, ignore);
        if (m != null) {
            unexpected.unlink(m);
            return m.payload;
        }
        posted.append(new MatchList.Entry<>(match, ignore, receive));
        return null;
    }

    /**
     * Delivers an arriving message.
     *
     * @param bits its match bits ({@link MatchBits#of})
     * @return the posted receive it matches (removed from the posted list), or null if the message
     *         now waits on the unexpected list
     */
    public R arrive(long bits, M message) {
        MatchList.Entry<R> r = posted.firstEntryMatching(bits);
        if (r != null) {
            posted.unlink(r);
            return r.payload;
        }
        unexpected.append(new MatchList.Entry<>(bits, 0, message));
        return null;
    }

    /**
     * The first half of {@link #arrive}, for callers that build the unexpected record only when
     * needed: removes and returns the posted receive a message with {@code bits} matches.
     *
     * @return the receive, or null if none matches (then call {@link #addUnexpected})
     */
    public R matchPosted(long bits) {
        MatchList.Entry<R> r = posted.firstEntryMatching(bits);
        if (r == null) {
            return null;
        }
        posted.unlink(r);
        return r.payload;
    }

    /**
     * @return the posted receive a message with {@code bits} would match, left in place (to decide,
     *         before {@link #matchPosted}, whether to match it now)
     */
    public R peekPosted(long bits) {
        MatchList.Entry<R> r = posted.firstEntryMatching(bits);
        return r == null ? null : r.payload;
    }

    /** The second half of {@link #arrive}: a message no posted receive matched waits, in arrival order. */
    public void addUnexpected(long bits, M message) {
        unexpected.append(new MatchList.Entry<>(bits, 0, message));
    }

    /**
     * Cancels a posted receive that has not matched yet.
     *
     * @return whether it was still posted (and is now gone)
     */
    public boolean cancel(R receive) {
        MatchList.Entry<R> r = posted.find(receive);
        if (r == null) {
            return false;
        }
        posted.unlink(r);
        return true;
    }

    /**
     * Removes the first posted receive {@code which} accepts (cancel by identity, or the receives a
     * failed peer leaves unmatchable).
     *
     * @return the receive removed, or null
     */
    public R removePosted(java.util.function.Predicate<? super R> which) {
        MatchList.Entry<R> r = posted.first(which);
        if (r == null) {
            return null;
        }
        posted.unlink(r);
        return r.payload;
    }

    /** @return the earliest unexpected message a receive with these bits would take, left in place (probe) */
    public M probe(long match, long ignore) {
        MatchList.Entry<M> m = unexpected.firstMatchedBy(match, ignore);
        return m == null ? null : m.payload;
    }

    /** @return the earliest matching unexpected message, removed so that no other receive takes it (mprobe) */
    public M take(long match, long ignore) {
        MatchList.Entry<M> m = unexpected.firstMatchedBy(match, ignore);
        if (m == null) {
            return null;
        }
        unexpected.unlink(m);
        return m.payload;
    }

    /** @return receives waiting for a message */
    public int postedCount() {
        return posted.size();
    }

    /** @return messages waiting for a receive */
    public int unexpectedCount() {
        return unexpected.size();
    }
}
