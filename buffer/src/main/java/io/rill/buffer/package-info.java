/**
 * Reference-counted byte buffers ({@link io.rill.buffer.ByteBuf}), their allocators and their
 * helpers. {@code ByteBuf}'s own page explains the reader and writer index with a worked example;
 * this page holds the rest of its contract, shared by every kind of buffer.
 *
 * <h2>Typed accessors</h2>
 * Every Java primitive can be moved four ways: {@code getX(index)} and {@code setX(index, v)}
 * work at an absolute index and move neither index; {@code readX()} takes the value at the reader
 * index and advances it; {@code writeX(v)} puts it at the writer index and advances that,
 * growing the capacity (up to the maximum) first if needed.
 * <table>
 *   <caption>What each X means</caption>
 *   <tr><th>X</th><th>bytes</th><th>returned as</th><th>notes</th></tr>
 *   <tr><td>Boolean</td><td>1</td><td>{@code boolean}</td><td>any non-zero byte reads as true;
 *       true is written as 1</td></tr>
 *   <tr><td>Byte / UnsignedByte</td><td>1</td><td>{@code byte} / {@code short}</td><td>setters
 *       and writers store the low 8 bits of an {@code int}</td></tr>
 *   <tr><td>Short / UnsignedShort</td><td>2</td><td>{@code short} / {@code int}</td><td>the low 16
 *       bits are stored</td></tr>
 *   <tr><td>Medium / UnsignedMedium</td><td>3</td><td>{@code int}, sign-extended / {@code int}</td>
 *       <td>the low 24 bits are stored</td></tr>
 *   <tr><td>Int / UnsignedInt</td><td>4</td><td>{@code int} / {@code long}</td><td></td></tr>
 *   <tr><td>Long</td><td>8</td><td>{@code long}</td><td></td></tr>
 *   <tr><td>Char</td><td>2</td><td>{@code char}</td><td>one UTF-16 code unit</td></tr>
 *   <tr><td>Float / Double</td><td>4 / 8</td><td>{@code float} / {@code double}</td><td>the raw
 *       IEEE 754 bits, NaN payloads kept</td></tr>
 * </table>
 * Multi-byte values are big-endian, the order of network protocols. Each has a twin with the
 * suffix {@code LE} ({@code getIntLE}, {@code writeShortLE}, ...) for little-endian formats; a
 * buffer has no byte-order setting, so the order is visible at every call.
 *
 * <h2>Kinds and views</h2>
 * Heap buffers wrap a {@code byte[]} ({@code hasArray()} is true), direct buffers a direct
 * {@link java.nio.ByteBuffer}; {@link io.rill.buffer.CompositeByteBuf} joins several buffers
 * without copying them. {@code slice()}, {@code duplicate()} and {@code asReadOnly()} return views
 * that share the memory of their parent, and its reference count unless taken through a
 * {@code retained...} method, but keep indexes of their own. {@code copy()} owns its bytes.
 *
 * <h2>Reference counting</h2>
 * A buffer starts with {@code refCnt()} 1; {@code retain()} adds a holder and {@code release()}
 * removes one, and the last release returns the memory (to the pool, for pooled buffers). Any
 * access to a released buffer throws {@link io.rill.buffer.IllegalReferenceCountException}, as
 * does a release too many.
 *
 * <h2>Errors</h2>
 * A bad index or length throws {@link java.lang.IndexOutOfBoundsException} whose message names
 * the index, the length and the valid range; a write past {@code maxCapacity()} names both. A
 * write to a read-only buffer throws {@link java.nio.ReadOnlyBufferException}.
 *
 * <h2>Threads</h2>
 * A buffer is not thread-safe: pass it to another thread through a happens-before edge (a queue,
 * an executor). Only the reference count may be changed from several threads at once.
 */
package io.rill.buffer;
