; The device code of examples/reschedule/conv1d_rows.cu as tcgen reschedule --emit=llvm
; writes it (clang-22 -O1 -Xclang -disable-llvm-passes, then the cleanup
; pass list): the input of the lit tests that do not run clang.
; ModuleID = 'examples/reschedule/conv1d_rows.cu'
source_filename = "examples/reschedule/conv1d_rows.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }
%struct.__cuda_builtin_blockIdx_t = type { i8 }

@_ZZ10conv1dRowsPfPKfiifffE4tile = internal addrspace(3) global [512 x float] undef, align 4
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1
@blockIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockIdx_t, align 1

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z10conv1dRowsPfPKfiifff(ptr noalias noundef %0, ptr noalias noundef %1, i32 noundef %2, i32 noundef %3, float noundef %4, float noundef %5, float noundef %6) #0 {
  %8 = call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %9 = call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %10 = mul i32 %9, %3
  %11 = zext i32 %10 to i64
  %12 = getelementptr inbounds nuw float, ptr %1, i64 %11
  %13 = mul i32 %9, %2
  %14 = zext i32 %13 to i64
  %15 = getelementptr inbounds nuw float, ptr %0, i64 %14
  br label %16

16:                                               ; preds = %18, %7
  %.0 = phi i32 [ 0, %7 ], [ %25, %18 ]
  %17 = icmp slt i32 %.0, %2
  br i1 %17, label %18, label %48

18:                                               ; preds = %16
  %19 = add nsw i32 %.0, %8
  %20 = sext i32 %19 to i64
  %21 = getelementptr inbounds float, ptr %12, i64 %20
  %22 = load float, ptr %21, align 4, !tbaa !11
  %23 = sext i32 %8 to i64
  %24 = getelementptr inbounds [512 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ10conv1dRowsPfPKfiifffE4tile to ptr), i64 0, i64 %23
  store float %22, ptr %24, align 4, !tbaa !11
  %25 = add nsw i32 %.0, 256
  %26 = add nsw i32 %25, %8
  %27 = sext i32 %26 to i64
  %28 = getelementptr inbounds float, ptr %12, i64 %27
  %29 = load float, ptr %28, align 4, !tbaa !11
  %30 = add nsw i32 %8, 256
  %31 = sext i32 %30 to i64
  %32 = getelementptr inbounds [512 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ10conv1dRowsPfPKfiifffE4tile to ptr), i64 0, i64 %31
  store float %29, ptr %32, align 4, !tbaa !11
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %33 = load float, ptr %24, align 4, !tbaa !11
  %34 = fmul contract float %4, %33
  %35 = add nsw i32 %8, 1
  %36 = sext i32 %35 to i64
  %37 = getelementptr inbounds [512 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ10conv1dRowsPfPKfiifffE4tile to ptr), i64 0, i64 %36
  %38 = load float, ptr %37, align 4, !tbaa !11
  %39 = fmul contract float %5, %38
  %40 = fadd contract float %34, %39
  %41 = add nsw i32 %8, 2
  %42 = sext i32 %41 to i64
  %43 = getelementptr inbounds [512 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ10conv1dRowsPfPKfiifffE4tile to ptr), i64 0, i64 %42
  %44 = load float, ptr %43, align 4, !tbaa !11
  %45 = fmul contract float %6, %44
  %46 = fadd contract float %40, %45
  %47 = getelementptr inbounds float, ptr %15, i64 %20
  store float %46, ptr %47, align 4, !tbaa !11
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %16, !llvm.loop !13

48:                                               ; preds = %16
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #3

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90a" "target-features"="+ptx88,+sm_90a" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4, !5}
!llvm.errno.tbaa = !{!6}
!nvvmir.version = !{!10}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!6 = !{!7, !7, i64 0}
!7 = !{!"int", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C++ TBAA"}
!10 = !{i32 2, i32 0}
!11 = !{!12, !12, i64 0}
!12 = !{!"float", !8, i64 0}
!13 = distinct !{!13, !14, !15}
!14 = !{!"llvm.loop.mustprogress"}
!15 = !{!"llvm.loop.unroll.disable"}
