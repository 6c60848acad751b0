#include <stdint.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
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

/* MHD_get_connection_info is variadic as well: the client's address as text (IPv4 or IPv6) into `text`,
 * or "-" when it is unknown. */
static inline void mapraster_mhd_client_address(struct MHD_Connection *connection, char *text, size_t size)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (size < 2) return;
    text[0] = '-'; text[1] = 0;
    if (!info || !info->client_addr) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        if (!inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, text, (socklen_t)size)) {
            text[0] = '-'; text[1] = 0;
        }
    } else if (address->sa_family == AF_INET6) {
        if (!inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, text, (socklen_t)size)) {
            text[0] = '-'; text[1] = 0;
        }
    }
}
