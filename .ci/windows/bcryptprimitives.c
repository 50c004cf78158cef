/*
 * bcryptprimitives.dll for Wine 8 (Debian 12), which lacks it: Go's
 * runtime (1.22 and later) takes its random numbers from ProcessPrng there
 * and stops at once without it. make test-windows puts this stand-in into
 * the Wine prefix's system32; Windows 10 and later have the real one, so
 * the package never carries it. ProcessPrng fills data with random bytes
 * from the system's generator (RtlGenRandom, advapi32's SystemFunction036).
 */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
		if (!RtlGenRandom(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
