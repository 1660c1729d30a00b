; stream.s: a measurement, not a test and not part of any disk we ship (issue 14).
;
; Times, in VICE's x128 with true drive emulation of the 1581, at 2 MHz, the same NSEC
; logical sectors from track T, sector 0 brought in two ways:
;   B  the 1581's burst READ (as in burst.s): a CLK change from the computer per byte;
;   D  a routine of our own sent into the 1581 with M-W and started with M-E: it reads
;      each sector with the DOS's job 0 (read_dv, $80, through the track cache into
;      $0300) and sends its 256 bytes through the drive's shift register, waiting only
;      for each byte to shift out, with no answer from the computer, which takes them as
;      they come (screen blanked, interrupts off).
; and counts the bytes where D differs from B. Times in microseconds of emulated time
; (CIA 2's timers chained), printed as four bytes of hex, high first:
;   B tttttttt ff        time, failures
;   D tttttttt ff mmmm   time (from the first M-W to the last byte), failures, mismatches
;
;   ca65 -D T=39 -D NSEC=80 stream.s -o stream.o && ld65 -t none -o stream.prg stream.o
;   (-D KICK=1: the drive routine starts each job with BRK, as the DOS does, instead of
;   waiting for the controller's next interrupt; -D SEND_ONLY=1: one job, then the same
;   $0300 sent NSEC times, the stream alone: its mismatches are then expected;
;   -D BITRATE=n: the drive's timer A latch, which clocks the shift register, set to n
;   while it sends: a bit per 2 x (n + 1) cycles of its 2 MHz; the DOS sets 6, "6 us" a bit in its source)
;   cc1541 -n STREAM -w stream.prg stream.d81
;   node ../peek.mjs stream.d81 VDC 60 stream.png
;
; Drive side facts used (the 1581 DOS of 1987 as published): the job queue at $02 (job 0),
; its track and sector at $0B/$0C, job 0's buffer at $0300, a job's result below 2 is
; good; the CIA at $4000: port B $4001 (bit 5 the fast serial direction), serial data
; $400C, interrupt flags $400D (bit 3: a byte shifted), control A $400E (bit 6: out).
SETBNK = $FF68
SETLFS = $FFBA
SETNAM = $FFBD
OPEN   = $FFC0
CLOSE  = $FFC3
CHKOUT = $FFC9
CLRCHN = $FFCC
CHROUT = $FFD2
ptr    = $FB
src    = $FD
wait   = $0B00                      ; three bytes: a byte's time-out

        .org $1BFF
        .word $1C01
        .word basic_end, 10
        .byte $9E, "7181", 0
basic_end:
        .word 0

start:  lda #0
        tax
        jsr SETBNK
        lda #1
        sta $D030
        lda $D011
        and #$EF
        sta $D011                   ; no VIC DMA
        jsr burst
        ldx #3
:       lda elapsed,x
        sta burst_time,x
        dex
        bpl :-
        jsr stream
        jsr compare
        lda $D011
        ora #$10
        sta $D011
        lda #0
        sta $D030

        lda #'B'
        jsr CHROUT
        ldx #3
:       lda burst_time,x
        jsr hex_space
        dex
        bpl :-
        lda burst_failures
        jsr hex
        lda #13
        jsr CHROUT
        lda #'D'
        jsr CHROUT
        ldx #3
:       lda elapsed,x
        jsr hex_space
        dex
        bpl :-
        lda stream_failures
        jsr hex_space
        lda mismatches+1
        jsr hex
        lda mismatches
        jsr hex
        lda #13
        jmp CHROUT

; The burst READ of NSEC logical sectors from T, sector 0, to $2000.
burst:  jsr timer_start
        lda #burst_command_end-burst_command
        ldx #<burst_command
        ldy #>burst_command
        jsr SETNAM
        lda #15
        ldx #8
        ldy #15
        jsr SETLFS
        jsr OPEN
        sei
        jsr serial_in
        lda #$20
        jsr set_ptr
        ldx #NSEC
@sector:
        jsr get_byte
        bcs @failed
        and #$0F
        cmp #2
        bcs @failed
        ldy #0
@byte:  jsr get_byte
        bcs @failed
        sta (ptr),y
        iny
        bne @byte
        inc ptr+1
        dex
        bne @sector
        beq @done
@failed:
        inc burst_failures
@done:  cli
        jsr timer_stop
        lda #15
        jmp CLOSE

; The drive routine: sent, started, its NSEC sectors taken at $7000.
stream: jsr timer_start
        lda #0
        jsr SETNAM
        lda #15
        ldx #8
        ldy #15
        jsr SETLFS
        jsr OPEN
        lda #<drive_code
        sta src
        lda #>drive_code
        sta src+1
        lda #0
        sta offset
@chunk: ldx #15
        jsr CHKOUT
        lda #'M'
        jsr CHROUT
        lda #'-'
        jsr CHROUT
        lda #'W'
        jsr CHROUT
        lda offset
        jsr CHROUT                  ; drive address: $0500 + offset
        lda #$05
        jsr CHROUT
        lda #32
        jsr CHROUT
        ldy #0
:       lda (src),y
        jsr CHROUT
        iny
        cpy #32
        bne :-
        jsr CLRCHN                  ; the drive runs the command now
        clc
        lda src
        adc #32
        sta src
        bcc :+
        inc src+1
:       lda offset
        clc
        adc #32
        sta offset
        cmp #drive_code_size
        bcc @chunk
        ldx #15
        jsr CHKOUT
        ldy #0
:       lda execute,y
        jsr CHROUT
        iny
        cpy #5
        bne :-
        jsr CLRCHN
        sei
        jsr serial_in
        lda #$70
        jsr set_ptr
        ldx #NSEC
@sector:
        ldy #0
@byte:  lda #0
        sta wait
        sta wait+1
        lda #16
        sta wait+2
@wait:  lda #8
        bit $DC0D
        bne @got
        inc wait
        bne @wait
        inc wait+1
        bne @wait
        dec wait+2
        bne @wait
        inc stream_failures
        bne @done
@got:   lda $DC0C
        sta (ptr),y
        iny
        bne @byte
        inc ptr+1
        dex
        bne @sector
@done:  cli
        jsr timer_stop
        lda #15
        jmp CLOSE

compare:                            ; with RAM 0 everywhere: the buffers lie under BASIC's ROM
        sei
        lda #$3F
        sta $FF00
        lda #$20
        sta src+1
        lda #$70
        jsr set_ptr
        sta src
        ldx #NSEC
@page:  ldy #0
@byte:  lda (ptr),y
        cmp (src),y
        beq :+
        inc mismatches
        bne :+
        inc mismatches+1
:       iny
        bne @byte
        inc ptr+1
        inc src+1
        dex
        bne @page
        lda #0
        sta $FF00
        cli
        rts

set_ptr:
        sta ptr+1
        lda #0
        sta ptr
        rts

serial_in:
        lda $DC0E
        and #$BF
        sta $DC0E
        lda $D505
        and #$F7
        sta $D505
        lda $DC0D
        rts

        .include "common.inc"

burst_command:
        .byte "U0", $80, T, 0, NSEC
burst_command_end:
execute:
        .byte "M-E", $00, $05
burst_failures:  .byte 0
stream_failures: .byte 0
offset:          .byte 0
mismatches:      .word 0
elapsed:         .dword 0
burst_time:      .dword 0

; ---- runs in the 1581 at $0500 ----
drive_code:
        .org $0500
d_start:
.ifdef BITRATE
        lda $4004
        sta d_rate
        lda #BITRATE                ; timer A, the shift clock: a bit per 2 x (BITRATE + 1) cycles
        sta $4004
.endif
        lda #T
        sta d_track
        lda #0
        sta d_sector
        lda #NSEC
        sta d_count
@next:  lda d_track
        sta $0B
        lda d_sector
        sta $0C
        lda d_sent
        bne @send_only              ; SEND_ONLY: the first sector's job, then no more
.ifdef SEND_ONLY
        inc d_sent
.endif
        cli
        lda #$80                    ; read_dv, job 0
        sta $02
.ifdef KICK
        brk                         ; the controller runs it now, as the DOS's own calls do
        nop
.endif
:       lda $02
        bmi :-
        cmp #2
        bcs @out                    ; a bad sector: stop sending (the computer times out)
@send_only:
        sei
        lda $4001
        ora #$20
        sta $4001                   ; fast serial direction: out
        lda $400E
        ora #$40
        sta $400E                   ; serial port: out
        ldy #0
@send:  lda $0300,y
        sta $400C
        lda #8
:       bit $400D
        beq :-
        iny
        bne @send
        inc d_sector
        lda d_sector
        cmp #40
        bne :+
        lda #0
        sta d_sector
        inc d_track
:       dec d_count
        bne @next
@out:   sei
.ifdef BITRATE
        lda d_rate
        sta $4004
.endif
        lda $400E
        and #$BF
        sta $400E
        lda $4001
        and #$DF
        sta $4001
        cli
        rts
d_track:  .byte 0
d_sector: .byte 0
d_count:  .byte 0
d_sent:   .byte 0
d_rate:   .byte 0
d_end:
        .reloc
drive_code_size = d_end - d_start
