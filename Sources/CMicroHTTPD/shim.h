#include <stdint.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/* MHD_start_daemon takes its options as C varargs, which Swift cannot pass: this one call fixes the options
 * MapServer uses (listening address, completion callback, connection limit and timeout, memory per connection). */
static inline struct MHD_Daemon *mapraster_mhd_start(
    unsigned int flags, uint16_t port, const struct sockaddr *address, MHD_AccessHandlerCallback handler,
    void *context, MHD_RequestCompletedCallback completed, unsigned int connection_limit,
    unsigned int timeout_seconds, size_t memory_limit)
{
    return MHD_start_daemon(
        flags, port, NULL, NULL, handler, context,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_END);
}

/* MHD_get_daemon_info is variadic too: the port a daemon started on port 0 listens on, or 0. */
static inline uint16_t mapraster_mhd_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
