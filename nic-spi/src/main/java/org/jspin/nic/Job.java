package org.jspin.nic;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * What the ranks of one job share: its id, its size, and attachments that providers create once
 * per job (the in-JVM fabric's queues, say). Ranks in one JVM share one {@code Job}; ranks in
 * separate processes each hold their own, filled by the bootstrap.
 */
public final class Job {
    private final String id;
    private final int size;
    private final Map<String, Object> attachments = new ConcurrentHashMap<>();

    /**
     * @throws MpiException ERR_ARG for a size below 1 or a blank id
     */
    public Job(String id, int size) {
        if (id == null || id.isBlank()) {
            throw new MpiException(ErrorClass.ERR_ARG, "job id must not be blank, got '" + id + "'");
        }
        if (size < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "job size must be at least 1, got " + size);
        }
        this.id = id;
        this.size = size;
    }

    /** @return the job id */
    public String id() {
        return id;
    }

    /** @return ranks in the job */
    public int size() {
        return size;
    }

    /** @return the attachment under {@code key}, created by {@code create} on first use (once, atomically) */
    public <T> T attachment(String key, Class<T> type, Supplier<? extends T> create) {
        return type.cast(attachments.computeIfAbsent(key, k -> create.get()));
    }

    @Override
    public String toString() {
        return "job " + id + " (" + size + " ranks)";
    }
}
