#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/* The server's hook for the raw request target: called once per request, before libmicrohttpd parses or
 * decodes anything, with the target exactly as sent (`/path?query`, `length` bytes). It returns the request's
 * state, which libmicrohttpd hands to the access handler as its `*con_cls`. */
typedef void *(*mapraster_target_callback)(void *context, const char *target, size_t length,
                                           struct MHD_Connection *connection);

struct mapraster_target_hook {
    mapraster_target_callback callback;
    void *context;
};

/* libmicrohttpd's URI log callback: hands the raw target to the server, then empties the query in place (the
 * byte after '?', inside libmicrohttpd's own read buffer) so that libmicrohttpd stores no query arguments of
 * its own: the server parses the query itself, strictly and within its own limits, and a query of thousands
 * of parameters cannot exhaust the connection's memory pool (which answered with a silent close). */
static inline void *mapraster_uri_hook(void *cls, const char *uri, struct MHD_Connection *connection)
{
    struct mapraster_target_hook *hook = (struct mapraster_target_hook *)cls;
    size_t length = strlen(uri);
    void *state = hook->callback(hook->context, uri, length, connection);
    char *query = memchr(uri, '?', length);
    if (query) query[1] = 0;
    return state;
}

/* libmicrohttpd's unescape callback: none. The server decodes the path itself (a `%00` must be a 400, not a
 * NUL that cuts the path short). */
static inline size_t mapraster_no_unescape(void *cls, struct MHD_Connection *connection, char *text)
{
    (void)cls; (void)connection;
    return strlen(text);
}

/* MHD_start_daemon takes its options as C varargs, which Swift cannot pass: this one call fixes the options
 * MapServer uses (listening address, callbacks, limits and timeouts). Not "strict for client": at level 1 the
 * library closes the connection without an answer for a space in the target; the server checks the target and
 * `Host` itself and answers 400. */
static inline struct MHD_Daemon *mapraster_mhd_start(
    unsigned int flags, uint16_t port, const struct sockaddr *address, MHD_AccessHandlerCallback handler,
    void *context, MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback notify,
    struct mapraster_target_hook *hook, unsigned int io_threads, unsigned int connection_limit,
    unsigned int per_ip_limit, unsigned int timeout_seconds, size_t memory_limit, unsigned int backlog)
{
    if (io_threads > 1) {
        return MHD_start_daemon(
            flags, port, NULL, NULL, handler, context,
            MHD_OPTION_SOCK_ADDR, address,
            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
            MHD_OPTION_NOTIFY_CONNECTION, notify, context,
            MHD_OPTION_URI_LOG_CALLBACK, mapraster_uri_hook, (void *)hook,
            MHD_OPTION_UNESCAPE_CALLBACK, mapraster_no_unescape, NULL,
            MHD_OPTION_THREAD_POOL_SIZE, io_threads,
            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
            MHD_OPTION_LISTEN_BACKLOG_SIZE, backlog,
            MHD_OPTION_STRICT_FOR_CLIENT, (int)0,
            MHD_OPTION_END);
    }
    return MHD_start_daemon(
        flags, port, NULL, NULL, handler, context,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_NOTIFY_CONNECTION, notify, context,
        MHD_OPTION_URI_LOG_CALLBACK, mapraster_uri_hook, (void *)hook,
        MHD_OPTION_UNESCAPE_CALLBACK, mapraster_no_unescape, NULL,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, backlog,
        MHD_OPTION_STRICT_FOR_CLIENT, (int)0,
        MHD_OPTION_END);
}

/* MHD_get_daemon_info is variadic too: the port a daemon started on port 0 listens on, or 0. */
static inline uint16_t mapraster_mhd_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* The connection's socket, or -1. */
static inline int mapraster_mhd_socket(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/* The state the connection notification stored for the connection (its `socket_context`), or NULL. */
static inline void *mapraster_mhd_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
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
