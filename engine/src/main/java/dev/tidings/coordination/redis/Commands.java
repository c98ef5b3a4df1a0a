package dev.tidings.coordination.redis;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.micrometer.core.instrument.Counter;

/**
 * The commands the coordination classes need, on one standalone Redis or on a Redis Cluster: Lettuce's
 * {@code RedisClusterCommands} and {@code RedisClusterAsyncCommands} are the supertypes of both the
 * standalone and the cluster API, so the classes are written once against them. A cluster connection
 * routes each command to the primary of its first key's slot, which is why every call's keys share a
 * hash tag.
 *
 * @param scriptLoads counts scripts sent in full because the node that answered did not have them
 */
record Commands(
    RedisClusterCommands<String, String> sync,
    RedisClusterAsyncCommands<String, String> async,
    Counter scriptLoads) {}
