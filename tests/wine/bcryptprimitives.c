/* A stand-in for Windows' bcryptprimitives.dll, which Wine 8 (Debian 12's) does not have:
   Rust's standard library imports ProcessPrng from it (since Rust 1.78), so no Rust program
   for Windows starts there without it. tests/it/portable.rs compiles this with mingw-w64
   and puts it beside datapages.exe when it runs that under Wine; it is never shipped
   (Windows 10 and later have the real one). */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!RtlGenRandom(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
