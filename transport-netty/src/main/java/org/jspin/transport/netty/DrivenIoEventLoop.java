package org.jspin.transport.netty;

import java.util.Collection;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.AbstractScheduledEventExecutor;
import io.netty.util.concurrent.DefaultPromise;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;

/**
 * An event loop without a thread of its own: its I/O and tasks run on whichever thread drives the
 * rank's engine at the moment ({@link #adopt}), inside the engine's rounds. That is the point: the
 * thread waiting for a message reads it from the socket and writes the answer itself, with no
 * hand-off to an event-loop thread and so no thread wake-up per message (on this machine kind a
 * wake-up costs about as much as the whole TCP round trip). Netty's own {@code ManualIoEventLoop}
 * fixes its owner once; the engine's driver changes between the progress thread and waiting
 * callers, so ownership here moves with it.
 *
 * <p>The engine guarantees one driver at a time and hands over with a CAS (a happens-before
 * edge), so the owner field needs no lock: a driver adopts the loop before touching a channel.
 * Work submitted from other threads ({@link #execute}) is queued and runs in the next round; if
 * the progress thread is blocked in {@link #run(long)} the submission wakes it.
 */
final class DrivenIoEventLoop extends AbstractScheduledEventExecutor implements IoEventLoop {
    private final IoHandler handler;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Promise<Void> terminated = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);
    private final Runnable onTask;
    private final Context nonBlocking = new Context(false);
    private final Context blocking = new Context(true);
    private volatile Thread owner;
    private volatile boolean blocked;
    /** A {@link #wakeup()} not yet consumed by a {@link #run(long)}: the next one does not block. */
    private volatile boolean woken;
    private volatile boolean shuttingDown;
    private boolean initialized;

    /**
     * @param factory makes the I/O handler (epoll or NIO)
     * @param onTask  run when another thread submits work, so the engine comes round to it
     */
    DrivenIoEventLoop(IoHandlerFactory factory, Runnable onTask) {
        this.handler = factory.newHandler(this);
        this.onTask = onTask;
    }

    /** The calling thread drives the loop from now on (the engine's current driver). */
    void adopt() {
        owner = Thread.currentThread();
    }

    /** Handles whatever I/O is ready and the tasks due, without blocking; the caller must have adopted the loop. */
    int runNow() {
        return run(nonBlocking);
    }

    /** Waits up to {@code nanos} for I/O (or {@link #wakeup()}), then handles it; the caller must have adopted the loop. */
    int run(long nanos) {
        blocking.limitNanos = nanos;
        blocked = true;
        try {
            if (!tasks.isEmpty()) {
                return run(nonBlocking);
            }
            return run(blocking);
        } finally {
            blocked = false;
            woken = false; // the caller is awake and looks at what it waited for next
        }
    }

    /** @return whether another thread has queued work that only a {@link #runNow} does */
    boolean hasTasks() {
        return !tasks.isEmpty();
    }

    /**
     * Ends a {@link #run(long)} early, or the next one if none runs; any thread. The flag is set
     * before the look at {@code blocked}, as the driver sets {@code blocked} before the handler's
     * last look at {@link Context#canBlock}: either the driver sees the flag or this sees it blocked
     * (and the handler's own wake-up sees its deadline).
     */
    void wakeup() {
        woken = true;
        if (blocked) {
            handler.wakeup();
        }
    }

    private int run(IoHandlerContext context) {
        if (owner != Thread.currentThread()) {
            throw new IllegalStateException(Thread.currentThread() + " drives a loop adopted by " + owner);
        }
        if (!initialized) {
            initialized = true;
            handler.initialize();
        }
        int n = handler.run(context);
        n += runTasks();
        if (shuttingDown && !terminated.isDone()) {
            handler.prepareToDestroy();
            handler.destroy();
            runTasks();
            terminated.setSuccess(null);
        }
        return n;
    }

    private int runTasks() {
        int n = 0;
        long now = getCurrentTimeNanos();
        Runnable t;
        while ((t = pollScheduledTask(now)) != null) {
            tasks.add(t);
        }
        while ((t = tasks.poll()) != null) {
            safeExecute(t);
            n++;
        }
        return n;
    }

    /** What the handler may do in one run: block (until the limit or the next scheduled task) or not. */
    private final class Context implements IoHandlerContext {
        private final boolean mayBlock;
        long limitNanos;

        Context(boolean mayBlock) {
            this.mayBlock = mayBlock;
        }

        @Override
        public boolean canBlock() {
            return mayBlock && tasks.isEmpty() && !woken;
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            if (!mayBlock) {
                return 0;
            }
            long scheduled = nextScheduledTaskDeadlineNanos();
            long limit = limitNanos;
            if (scheduled != -1) {
                limit = Math.min(limit, Math.max(0, scheduled - currentTimeNanos));
            }
            return limit;
        }

        @Override
        public long deadlineNanos() {
            if (!mayBlock) {
                return -1;
            }
            long scheduled = nextScheduledTaskDeadlineNanos();
            long limit = getCurrentTimeNanos() + limitNanos;
            return scheduled == -1 ? limit : Math.min(limit, scheduled);
        }
    }

    // ---- EventLoop ---------------------------------------------------------------------------

    @Override
    public boolean inEventLoop(Thread thread) {
        return thread == owner;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        if (!inEventLoop()) {
            wakeup();
            onTask.run();
        }
    }

    @Override
    public IoEventLoop next() {
        return this;
    }

    @Override
    public IoEventLoopGroup parent() {
        return null;
    }

    @Override
    @Deprecated
    public ChannelFuture register(Channel channel) {
        return register(new DefaultChannelPromise(channel, this));
    }

    @Override
    @Deprecated
    public ChannelFuture register(ChannelPromise promise) {
        promise.channel().unsafe().register(this, promise);
        return promise;
    }

    @Override
    @Deprecated
    public ChannelFuture register(Channel channel, ChannelPromise promise) {
        channel.unsafe().register(this, promise);
        return promise;
    }

    @Override
    public Future<IoRegistration> register(IoHandle handle) {
        Promise<IoRegistration> promise = newPromise();
        Runnable r = () -> {
            try {
                promise.setSuccess(handler.register(handle));
            } catch (Exception e) {
                promise.setFailure(e);
            }
        };
        if (inEventLoop()) {
            r.run();
        } else {
            execute(r);
        }
        return promise;
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return handler.isCompatible(handleType);
    }

    @Override
    public boolean isIoType(Class<? extends IoHandler> handlerType) {
        return handler.getClass().equals(handlerType);
    }

    // ---- lifecycle: the loop ends in the next round after shutdown ---------------------------

    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        shuttingDown = true;
        wakeup();
        return terminated;
    }

    @Override
    @Deprecated
    public void shutdown() {
        shutdownGracefully(0, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public Future<?> terminationFuture() {
        return terminated;
    }

    @Override
    public boolean isShuttingDown() {
        return shuttingDown;
    }

    @Override
    public boolean isShutdown() {
        return shuttingDown;
    }

    @Override
    public boolean isTerminated() {
        return terminated.isDone();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    // invokeAny/invokeAll wait for their tasks, which only the driving thread runs: from it they would
    // wait for themselves, so they are refused there; from any other thread they work as usual.

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> c) throws InterruptedException, ExecutionException {
        refuseInLoop("invokeAny");
        return super.invokeAny(c);
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> c, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        refuseInLoop("invokeAny");
        return super.invokeAny(c, timeout, unit);
    }

    @Override
    public <T> List<java.util.concurrent.Future<T>> invokeAll(Collection<? extends Callable<T>> c)
            throws InterruptedException {
        refuseInLoop("invokeAll");
        return super.invokeAll(c);
    }

    @Override
    public <T> List<java.util.concurrent.Future<T>> invokeAll(Collection<? extends Callable<T>> c, long timeout,
                                                              TimeUnit unit) throws InterruptedException {
        refuseInLoop("invokeAll");
        return super.invokeAll(c, timeout, unit);
    }

    private void refuseInLoop(String what) {
        if (inEventLoop()) {
            throw new RejectedExecutionException(what + " from the thread driving the loop would wait for itself");
        }
    }
}
